import { ProductCreate } from "@/features/admin/catalog/product-create";

export const metadata = { title: "New product" };

/**
 * The template (?template=ID) is read here, on the server, not with useSearchParams in the browser, which would need
 * a suspense boundary around the form. Such a boundary streams its server-rendered form after the page, hidden until
 * React reveals it; when a provider above it changes meanwhile (the session, once loaded), React gives up hydrating it
 * and renders the form afresh in the browser, and for a moment the page held both copies: two "Template" selects.
 * Without the boundary the form arrives and hydrates with the page, once.
 */
export default async function CreateProductPage({ searchParams }: { searchParams: Promise<{ template?: string }> }) {
  const templateId = Number((await searchParams).template);
  return <ProductCreate templateId={Number.isInteger(templateId) && templateId > 0 ? templateId : null} />;
}
