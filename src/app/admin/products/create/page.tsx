import { Suspense } from "react";
import { ProductCreate } from "@/features/admin/catalog/product-create";

export const metadata = { title: "New product" };

export default function CreateProductPage() {
  return (
    <Suspense>
      <ProductCreate />
    </Suspense>
  );
}
