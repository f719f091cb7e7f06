"use client";

import { LayoutTemplate, Pencil, Plus } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useMemo, useState } from "react";
import { useForm } from "react-hook-form";
import { toast } from "@/components/toast";
import { AdminCard } from "@/components/ui/admin-card";
import { AdminInput, AdminTextarea } from "@/components/ui/admin-form-controls";
import { AdminTableCell, AdminTableRow } from "@/components/ui/admin-table";
import { Button } from "@/components/ui/button";
import { descriptionTextFields, templateFormInput, type ProductTemplate, type TemplateFormInput } from "@/server/catalog/admin-schemas";
import { formatDateTime, humanize } from "../kit/format";
import { useFieldRefusals } from "../kit/forms/field-refusals";
import { filledThenSchema, showRefusal } from "../kit/forms/filled-resolver";
import { FormField, fieldProps } from "../kit/forms/form-field";
import { CancelButton, FormActions, FormSection, SubmitButton } from "../kit/forms/form-layout";
import { DeleteRowButton, ListFrame, ListTable } from "../kit/list-table";
import { ProductFields, type ProductFieldValues } from "./product-fields";
import { useCreateTemplate, useDeleteTemplate, useProductFormChoices, useTemplate, useTemplates, useUpdateTemplate } from "./queries";

type TemplateValues = ProductFieldValues & { templateName: string; templateDescription: string };

function valuesOf(template: ProductTemplate | null): TemplateValues {
  const text = (value: string | null | undefined) => value ?? "";
  return {
    templateName: text(template?.templateName),
    templateDescription: text(template?.templateDescription),
    name: text(template?.name),
    price: template?.price ? template.price.toFixed(2) : "",
    shippingFee: template?.shippingFee ? template.shippingFee.toFixed(2) : "",
    isBulk: template?.isBulk ?? false,
    categoryId: template?.categoryId ?? Number.NaN,
    manufacturerId: template?.manufacturerId ?? Number.NaN,
    countryId: template?.countryId ?? Number.NaN,
    caliber: text(template?.caliber),
    state: text(template?.state),
    itemType: text(template?.itemType),
    gender: text(template?.gender),
    ...(Object.fromEntries(descriptionTextFields.map((field) => [field, text(template?.[field])])) as Record<(typeof descriptionTextFields)[number], string>),
  };
}

function toInput(values: TemplateValues): TemplateFormInput {
  const id = (value: number) => (Number.isNaN(value) ? null : value);
  const enumValue = <T extends string>(value: string) => (value ? (value as T) : null);
  return {
    ...values,
    categoryId: id(values.categoryId),
    manufacturerId: id(values.manufacturerId),
    countryId: id(values.countryId),
    caliber: enumValue(values.caliber),
    state: enumValue(values.state),
    itemType: enumValue(values.itemType),
    gender: enumValue(values.gender),
  } as TemplateFormInput;
}

const required = new Set(["templateName"]);
const resolver = filledThenSchema(templateFormInput, ["templateName"], toInput);

/** create-template (no template) and edit-template (with one): only the template's name is required. */
export function TemplateForm({ template }: { template: ProductTemplate | null }) {
  const router = useRouter();
  const choices = useProductFormChoices();
  const initial = useMemo(() => valuesOf(template), [template]);
  const form = useForm<TemplateValues, unknown, TemplateFormInput>({ defaultValues: initial, resolver, shouldFocusError: false });
  useEffect(() => form.reset(initial), [form, initial]);
  const [invalid, setInvalid] = useState<Set<string>>(new Set());
  const { errorOf } = useFieldRefusals(form);
  const done = (message: string) => {
    toast.success(message);
    router.push("/admin/products/edit-template");
  };
  const create = useCreateTemplate({ onSuccess: () => done("Template created") });
  const update = useUpdateTemplate({ onSuccess: () => done("Template saved") });

  const submit = (input: TemplateFormInput) => {
    setInvalid(new Set());
    if (template) update.mutate({ id: template.id, ...input });
    else create.mutate(input);
  };
  const busy = create.isPending || update.isPending;
  const nameMissing = invalid.has("templateName") ? "Required" : undefined;
  // The selects can only show a saved category or manufacturer once their options are there.
  if (!choices.data) return <div className="h-[32rem] animate-pulse rounded-lg border bg-muted/40" aria-busy="true" />;
  return (
    <form noValidate onSubmit={form.handleSubmit(submit, (errors) => showRefusal(errors, setInvalid))} aria-label={template ? "Edit template" : "New template"}>
      <AdminCard className="px-5">
        <FormSection title="Template" description="How staff find it when starting a product. Every other field is optional." bodyClassName="grid gap-3 sm:grid-cols-2">
          <FormField label="Template name" htmlFor="field-templateName" required error={nameMissing}>
            <AdminInput {...fieldProps("templateName", nameMissing)} {...form.register("templateName")} placeholder="Signed crown, NOS" />
          </FormField>
          <FormField label="What it is for" htmlFor="field-templateDescription">
            <AdminTextarea id="field-templateDescription" rows={1} className="min-h-9" {...form.register("templateDescription")} />
          </FormField>
        </FormSection>
        <ProductFields register={form.register} choices={choices.data} required={required} invalid={invalid} errorOf={errorOf} allowEmptyEnums />
      </AdminCard>
      <FormActions sticky className="mt-4">
        <CancelButton />
        <SubmitButton busy={busy}>{template ? "Save template" : "Create template"}</SubmitButton>
      </FormActions>
    </form>
  );
}

/** edit-template without an id: the templates, to edit, delete or start a product from. */
export function TemplateList() {
  const templates = useTemplates();
  const remove = useDeleteTemplate();
  return (
    <div className="space-y-3">
      <div className="flex justify-end">
        <Button asChild size="sm">
          <Link href="/admin/products/create-template">
            <Plus /> New template
          </Link>
        </Button>
      </div>
      <ListFrame>
        <ListTable
          columns={[{ label: "Template" }, { label: "Product name" }, { label: "Item type" }, { label: "Changed" }, { label: "Actions", className: "text-right" }]}
          empty={templates.data?.length === 0 ? "No templates yet. A template saves the fields a kind of product always shares." : null}
          emptyClassName="h-24"
        >
          {templates.data?.map((row) => (
            <AdminTableRow key={row.id}>
              <AdminTableCell>
                <p className="font-medium">{row.templateName}</p>
                {row.templateDescription ? <p className="text-[11px] text-muted-foreground">{row.templateDescription}</p> : null}
              </AdminTableCell>
              <AdminTableCell className="text-muted-foreground">{row.name ?? "—"}</AdminTableCell>
              <AdminTableCell>{row.itemType ? humanize(row.itemType) : "—"}</AdminTableCell>
              <AdminTableCell className="text-muted-foreground">{formatDateTime(row.updatedAt)}</AdminTableCell>
              <AdminTableCell className="text-right whitespace-nowrap">
                <Button asChild size="sm" variant="outline" className="h-8">
                  <Link href={`/admin/products/create?template=${row.id}`}>
                    <LayoutTemplate /> Use
                  </Link>
                </Button>{" "}
                <Button asChild size="icon" variant="ghost" className="size-8" aria-label={`Edit ${row.templateName}`}>
                  <Link href={`/admin/products/edit-template?id=${row.id}`}>
                    <Pencil />
                  </Link>
                </Button>
                <DeleteRowButton
                  className="size-8"
                  label={`Delete ${row.templateName}`}
                  question={`Delete the template "${row.templateName}"?`}
                  onConfirm={() => remove.mutate({ id: row.id })}
                />
              </AdminTableCell>
            </AdminTableRow>
          ))}
        </ListTable>
      </ListFrame>
    </div>
  );
}

export function TemplateEditor({ id }: { id: number }) {
  const template = useTemplate(id);
  if (template.error) return <p className="text-sm text-destructive">{template.error.message}</p>;
  if (!template.data) return <div className="h-96 animate-pulse rounded-lg border bg-muted/40" />;
  return <TemplateForm template={template.data} />;
}
