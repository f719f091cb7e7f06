import { TemplateForm } from "@/features/admin/catalog/template-pages";

export const metadata = { title: "New template" };

export default function CreateTemplatePage() {
  return <TemplateForm template={null} />;
}
