"use client";

import { LayoutTemplate } from "lucide-react";
import { usePathname, useRouter } from "next/navigation";
import { AdminSelect } from "@/components/ui/admin-form-controls";
import { ProductForm } from "./product-form";
import { useTemplate, useTemplates } from "./queries";

/**
 * A new product, blank or started from a template (?template=ID, read by the page on the server and handed in, so
 * that the form needs no suspense boundary of its own; see the page).
 */
export function ProductCreate({ templateId }: { templateId: number | null }) {
  const router = useRouter();
  const pathname = usePathname();
  const templates = useTemplates();
  const template = useTemplate(templateId);
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-3 rounded-lg border bg-card px-4 py-3">
        <LayoutTemplate className="size-5 text-brass" />
        <div className="mr-auto">
          <p className="text-sm font-medium">Start from a template</p>
          <p className="text-xs text-muted-foreground">Fills in the fields a kind of product always shares; change anything before saving.</p>
        </div>
        <AdminSelect
          aria-label="Template"
          className="w-72"
          value={templateId ?? ""}
          onChange={(event) => router.replace(event.target.value ? `${pathname}?template=${event.target.value}` : pathname)}
        >
          <option value="">Blank product</option>
          {templates.data?.map((entry) => (
            <option key={entry.id} value={entry.id}>
              {entry.templateName}
            </option>
          ))}
        </AdminSelect>
      </div>
      {templateId !== null && !template.data ? (
        <div className="h-96 animate-pulse rounded-lg border bg-muted/40" />
      ) : (
        <ProductForm key={templateId ?? "blank"} template={template.data ?? null} />
      )}
    </div>
  );
}
