import { Suspense } from "react";
import { CountryCostsTable } from "@/features/admin/shipping/country-costs-table";

export const metadata = { title: "Shipping countries" };

export default function ShippingCountriesPage() {
  return (
    <Suspense>
      <CountryCostsTable />
    </Suspense>
  );
}
