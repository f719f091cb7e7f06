import { Suspense } from "react";
import { ProductTable } from "@/features/admin/catalog/product-table";

export const metadata = { title: "Products" };

export default function ProductsPage() {
  return (
    <Suspense>
      <ProductTable />
    </Suspense>
  );
}
