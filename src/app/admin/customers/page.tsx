import { Suspense } from "react";
import { CustomerTable } from "@/features/admin/account/customer-table";

export const metadata = { title: "Customers" };

export default function CustomersPage() {
  return (
    <Suspense>
      <CustomerTable />
    </Suspense>
  );
}
