import { Suspense } from "react";
import { OfferTable } from "@/features/admin/marketplace/offer-table";

export const metadata = { title: "Manage ads" };

export default function ManageAdsPage() {
  return (
    <Suspense>
      <OfferTable />
    </Suspense>
  );
}
