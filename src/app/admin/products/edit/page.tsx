import { notFound } from "next/navigation";
import { Suspense } from "react";
import { ProductEditor } from "@/features/admin/catalog/product-editor";

export const metadata = { title: "Edit product" };

export default async function EditProductPage({ searchParams }: { searchParams: Promise<{ id?: string }> }) {
  const id = Number((await searchParams).id);
  if (!Number.isInteger(id) || id < 1) notFound();
  return (
    <Suspense>
      <ProductEditor id={id} />
    </Suspense>
  );
}
