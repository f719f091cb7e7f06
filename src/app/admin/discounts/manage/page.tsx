import { Suspense } from "react";
import { DiscountList } from "@/features/admin/discounts/discount-list";

export const metadata = { title: "Manage discounts" };

export default function ManageDiscountsPage() {
  return (
    <Suspense>
      <DiscountList />
    </Suspense>
  );
}
