import { TemplateEditor, TemplateList } from "@/features/admin/catalog/template-pages";

export const metadata = { title: "Templates" };

/** Without an id: the list of templates; with ?id=: that template's form. */
export default async function EditTemplatePage({ searchParams }: { searchParams: Promise<{ id?: string }> }) {
  const id = Number((await searchParams).id);
  return Number.isInteger(id) && id > 0 ? <TemplateEditor id={id} /> : <TemplateList />;
}
