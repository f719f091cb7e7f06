import { notFound } from "next/navigation";
import { ProductEditor } from "@/features/admin/catalog/product-editor";

export const metadata = { title: "Edit product" };

/** The tab (?tab=) is read here, as the create page reads its template, so that the form needs no suspense boundary. */
export default async function EditProductPage({ searchParams }: { searchParams: Promise<{ id?: string; tab?: string }> }) {
  const { id: idText, tab } = await searchParams;
  const id = Number(idText);
  if (!Number.isInteger(id) || id < 1) notFound();
  return <ProductEditor id={id} tab={tab} />;
}
