"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useMemo, useState, type ReactNode } from "react";
import { useForm, useWatch, type FieldErrors } from "react-hook-form";
import { toast } from "@/components/toast";
import { AdminCard } from "@/components/ui/admin-card";
import { AdminInput, AdminSelect, AdminSwitch } from "@/components/ui/admin-form-controls";
import { percentRange, positiveEuroRange } from "@/lib/amount-text";
import { discountTypes } from "@/lib/enums";
import { cn } from "@/lib/utils";
import { createDiscountInput, updateDiscountInput, type DiscountDetail, type DiscountFormInput, type UpdateDiscountInput } from "@/server/discounts/admin-schemas";
import { customerPath } from "../account/customer-badges";
import { ProductPicker } from "../catalog/product-picker";
import { useFieldRefusals } from "../kit/forms/field-refusals";
import { filledThenSchema, showRefusal } from "../kit/forms/filled-resolver";
import { FormField, fieldProps } from "../kit/forms/form-field";
import { CancelButton, FormActions, FormSection, RequiredNote, SubmitButton } from "../kit/forms/form-layout";
import { isFilled } from "../kit/forms/is-filled";
import { fieldLabels, inputOf, previewInputOf, required, shownValue, valuesOf, type DiscountFormValues } from "./discount-form-values";
import { ChosenList, CustomerSearch, GroupPicker, TargetPreview } from "./discount-targets";
import { discountTypeHints, discountTypeLabels } from "./labels";
import { useCreateDiscount, useDiscountTargetChoices, useUpdateDiscount } from "./queries";
import { NumberInput } from "../kit/forms/number-input";

/** The form's sections, padded inside its card so that their rules run from edge to edge. */
function Section(props: { title: string; description: string; children: ReactNode }) {
  return <FormSection {...props} className="px-5" />;
}

/**
 * A discount of any of the four kinds, new or saved. The form checks with the server's own schema
 * (`discountFormInput`); the kind of a saved discount stays as it was created.
 */
export function DiscountForm({ discount }: { discount?: DiscountDetail }) {
  const router = useRouter();
  const choices = useDiscountTargetChoices();
  const initial = useMemo(() => valuesOf(discount), [discount]);
  const resolver = useMemo(
    () =>
      discount
        ? filledThenSchema(updateDiscountInput, required, (values: DiscountFormValues): UpdateDiscountInput => ({ id: discount.id, ...inputOf(values), discountType: discount.discountType }))
        : filledThenSchema(createDiscountInput, required, inputOf),
    [discount],
  );
  const form = useForm<DiscountFormValues, unknown, DiscountFormInput | UpdateDiscountInput>({ defaultValues: initial, resolver: resolver as never, shouldFocusError: false });
  // What the server refuses all the same (a rule only it checks) is put on its field too.
  const { refuseFromServer } = useFieldRefusals(form);
  const values = useWatch({ control: form.control }) as DiscountFormValues;
  const [missing, setMissing] = useState<Set<string>>(new Set());
  useEffect(() => form.reset(initial), [form, initial]);

  const create = useCreateDiscount();
  const update = useUpdateDiscount();
  const busy = create.isPending || update.isPending;
  const errors = form.formState.errors as Record<string, { message?: string } | undefined>;
  const errorOf = (name: string) => (missing.has(name) && !isFilled(values[name as keyof DiscountFormValues]) ? "Required" : errors[name]?.message);

  const submit = async (input: DiscountFormInput | UpdateDiscountInput) => {
    setMissing(new Set());
    if ("id" in input) {
      const saved = await update.mutateAsync(input as UpdateDiscountInput);
      toast.success("Saved", { description: `${saved.name} (${saved.label}) is up to date; the shop shows the change now.` });
      return;
    }
    const { id } = await create.mutateAsync(input);
    toast.success("Discount created", { description: `${input.name} is saved.` });
    router.push(`/admin/discounts/manage/${id}`);
  };
  const refuse = (refused: FieldErrors<DiscountFormValues>) => showRefusal(refused, setMissing, (path) => fieldLabels[path] ?? path);

  const set = <K extends keyof DiscountFormValues>(name: K, value: DiscountFormValues[K]) => form.setValue(name, value as never, { shouldDirty: true });
  const type = values.discountType;
  const chosenProducts = useMemo(() => new Set(values.products?.map((product) => product.id)), [values.products]);
  const chosenCustomers = useMemo(() => new Set(values.customers?.map((customer) => customer.id)), [values.customers]);
  const shown = shownValue(values.pricingType, values.value ?? "");
  const register = form.register;
  const field = (name: string) => fieldProps(name, errorOf(name));

  return (
    <form noValidate aria-label={discount ? `Edit discount ${discount.name}` : "New discount"} onSubmit={form.handleSubmit((input) => submit(input).catch(refuseFromServer), refuse)}>
      <AdminCard>
        <Section title="Kind" description={discount ? "A saved discount keeps its kind; create a new one for another kind." : "Who or what the discount is for."}>
          <fieldset className="grid gap-2 sm:grid-cols-2" aria-label="Kind of discount">
            {discountTypes.map((kind) => (
              <label
                key={kind}
                className={cn(
                  "flex cursor-pointer items-start gap-2 rounded-md border px-3 py-2 text-sm has-[:checked]:border-primary has-[:checked]:bg-accent/40",
                  discount && kind !== type && "cursor-not-allowed opacity-50",
                )}
              >
                <input
                  type="radio"
                  name="discountType"
                  value={kind}
                  checked={kind === type}
                  disabled={Boolean(discount)}
                  onChange={() => set("discountType", kind)}
                  className="mt-0.5 size-4 accent-[var(--primary)]"
                />
                <span>
                  <span className="block font-medium">{discountTypeLabels[kind]}</span>
                  <span className="block text-xs text-muted-foreground">{discountTypeHints[kind]}</span>
                </span>
              </label>
            ))}
          </fieldset>
        </Section>

        <Section title="Terms" description="Percentages are typed as percentages (15 for 15%); amounts in euro.">
          <div className="grid gap-3 sm:grid-cols-2">
            <FormField
              label={type === "COUPON" ? "Code" : "Name"}
              htmlFor="field-name"
              required
              error={errorOf("name")}
              hint={type === "COUPON" ? "What customers type at checkout; saved in capitals" : "Staff see the name; customers see the value"}
              className="sm:col-span-2"
            >
              <AdminInput {...field("name")} {...register("name")} autoComplete="off" placeholder={type === "COUPON" ? "SPRING15" : "Spring sale 15%"} className={cn(type === "COUPON" && "font-mono uppercase")} />
            </FormField>
            <FormField label="Type of value" htmlFor="field-pricingType">
              <AdminSelect id="field-pricingType" {...register("pricingType")}>
                <option value="PERCENT">Percentage off</option>
                <option value="FIXED">Amount off (€)</option>
              </AdminSelect>
            </FormField>
            <FormField
              label={values.pricingType === "PERCENT" ? "Percentage (%)" : "Amount (€)"}
              htmlFor="field-value"
              required
              error={errorOf("value")}
              hint={shown ? <>The shop shows it as <strong className="text-foreground">{shown}</strong></> : values.pricingType === "PERCENT" ? "More than 0, at most 100" : "More than €0.00"}
            >
              <NumberInput {...field("value")} {...register("value")} {...(values.pricingType === "PERCENT" ? percentRange : positiveEuroRange)} placeholder={values.pricingType === "PERCENT" ? "15" : "5.00"} />
            </FormField>
          </div>
        </Section>

        <Section title="When" description="Times are the shop's time (Amsterdam). Empty: from now on, or without an end.">
          <div className="grid gap-3 sm:grid-cols-2">
            <FormField label="Starts" htmlFor="field-startsAt" error={errorOf("startsAt")} hint="Empty: applies at once">
              <AdminInput type="datetime-local" {...field("startsAt")} {...register("startsAt")} />
            </FormField>
            <FormField label="Ends" htmlFor="field-expiresAt" error={errorOf("expiresAt")} hint="No longer applies from this moment on; empty: no end">
              <AdminInput type="datetime-local" {...field("expiresAt")} {...register("expiresAt")} />
            </FormField>
          </div>
          <label className="flex items-center gap-2 text-sm">
            <AdminSwitch checked={values.active} onCheckedChange={(checked) => set("active", checked)} aria-label="Active" />
            {values.active ? "Active: applies within its window" : "Switched off: applies nowhere until switched on"}
          </label>
        </Section>

        {type === "PRODUCT" ? (
          <Section title="Products" description="Chosen one by one, or every product of a category or manufacturer (with everything below it) as it is when you save.">
            <ProductPicker taken={chosenProducts} onAdd={(product) => set("products", [...values.products, product])} />
            <ChosenList
              items={values.products ?? []}
              noun="product"
              keyOf={(product) => product.id}
              render={(product) => (
                <>
                  {product.name} <span className="text-muted-foreground">#{product.id}</span>
                </>
              )}
              onRemove={(product) => set("products", values.products.filter((other) => other.id !== product.id))}
              onClear={() => set("products", [])}
            />
            <div className="grid gap-3 sm:grid-cols-2">
              <GroupPicker label="Categories" empty="Add every product of a category…" choices={choices.data?.categories} chosen={values.categoryIds ?? []} onChange={(ids) => set("categoryIds", ids)} />
              <GroupPicker label="Manufacturers" empty="Add every product of a manufacturer…" choices={choices.data?.manufacturers} chosen={values.manufacturerIds ?? []} onChange={(ids) => set("manufacturerIds", ids)} />
            </div>
            <TargetPreview input={previewInputOf(values, discount?.id)} noun="product" />
          </Section>
        ) : null}

        {type === "USER" ? (
          <Section title="Customers" description="Chosen by name or e-mail, or every VIP customer as they are when you save. The better of a customer's discount and a coupon applies.">
            <CustomerSearch chosen={chosenCustomers} onAdd={(customer) => set("customers", [...values.customers, customer])} />
            <ChosenList
              items={values.customers ?? []}
              noun="customer"
              keyOf={(customer) => customer.id}
              render={(customer) => (
                <>
                  {/* A new tab: the form keeps what is typed. */}
                  <Link href={customerPath(customer.id)} target="_blank" className="hover:text-primary hover:underline">
                    {customer.name ?? customer.email}
                  </Link>{" "}
                  <span className="text-muted-foreground">{customer.email}</span>
                </>
              )}
              onRemove={(customer) => set("customers", values.customers.filter((other) => other.id !== customer.id))}
              onClear={() => set("customers", [])}
            />
            <label className="flex items-start gap-2 text-sm">
              <input type="checkbox" className="mt-0.5 size-4 accent-[var(--primary)]" {...register("allVips")} />
              <span>
                Every VIP customer
                <span className="block text-xs text-muted-foreground">Customers made VIP later get it when the discount is saved again.</span>
              </span>
            </label>
            <TargetPreview input={previewInputOf(values, discount?.id)} noun="customer" />
          </Section>
        ) : null}

        {type === "COUPON" ? (
          <Section title="Coupon terms" description="The code applies to the cart after product discounts; a customer's own discount stays when it takes more off.">
            <div className="grid gap-3 sm:grid-cols-2">
              <FormField label="Minimum order value (€)" htmlFor="field-minOrderValue" error={errorOf("minOrderValue")} hint="Empty: any cart">
                <NumberInput {...field("minOrderValue")} {...register("minOrderValue")} {...positiveEuroRange} placeholder="50.00" />
              </FormField>
              <FormField label="Usage limit (orders)" htmlFor="field-usageLimit" error={errorOf("usageLimit")} hint="Empty: no limit. Cancelled orders give their use back">
                <NumberInput {...field("usageLimit")} {...register("usageLimit")} min={1} max={999_999_999} placeholder="100" />
              </FormField>
            </div>
          </Section>
        ) : null}

        {type === "GLOBAL" ? (
          <Section title="Reach" description="Every product in the shop.">
            <p className="text-sm text-muted-foreground">Each product gets the better of this and its own product discount; the two never add up.</p>
          </Section>
        ) : null}
      </AdminCard>
      <FormActions sticky className="mt-4" note={<RequiredNote />}>
        <CancelButton />
        <SubmitButton busy={busy}>{discount ? "Save changes" : "Create discount"}</SubmitButton>
      </FormActions>
    </form>
  );
}
