"use client";

import { AlertTriangle, UserRound, X } from "lucide-react";
import { useRouter } from "next/navigation";
import { useEffect, useMemo, useState, type ReactNode } from "react";
import { useForm, useWatch, type FieldErrors } from "react-hook-form";
import { toast } from "@/components/toast";
import { AdminBadge } from "@/components/ui/admin-badge";
import { AdminCard } from "@/components/ui/admin-card";
import { AdminInput, AdminLabel, AdminSelect, AdminSwitch } from "@/components/ui/admin-form-controls";
import { percentAsTyped } from "@/lib/amount-text";
import { discountTypes, type DiscountType, type PricingType } from "@/lib/enums";
import { cn } from "@/lib/utils";
import {
  createDiscountInput,
  dateToShopDateTime,
  formatDiscountValue,
  readDiscountValue,
  updateDiscountInput,
  type DiscountDetail,
  type DiscountFormInput,
  type DiscountGroupChoice,
  type DiscountTargetCustomer,
  type DiscountTargetPreviewInput,
  type DiscountTargetProduct,
  type UpdateDiscountInput,
} from "@/server/discounts/admin-schemas";
import { filledThenSchema, showRefusal } from "../kit/forms/filled-resolver";
import { FormField, fieldProps } from "../kit/forms/form-field";
import { CancelButton, FormActions, FormSection, RequiredNote, SubmitButton } from "../kit/forms/form-layout";
import { isFilled } from "../kit/forms/is-filled";
import { SEARCH_PAUSE_MS, SearchToAdd, useSearchTerm } from "../kit/forms/search-to-add";
import { useDebounced } from "../kit/forms/use-debounced";
import { formatCount } from "../kit/format";
import { ProductPicker } from "../catalog/product-picker";
import { discountTypeHints, discountTypeLabels } from "./labels";
import {
  useCreateDiscount,
  useDiscountCustomerSearch,
  useDiscountTargetChoices,
  useDiscountTargetPreview,
  useUpdateDiscount,
} from "./queries";

/** The form's values: text as typed, and the chosen products and customers with the names shown for them. */
type FormValues = {
  name: string;
  discountType: DiscountType;
  pricingType: PricingType;
  value: string;
  active: boolean;
  startsAt: string;
  expiresAt: string;
  products: DiscountTargetProduct[];
  categoryIds: number[];
  manufacturerIds: number[];
  customers: DiscountTargetCustomer[];
  allVips: boolean;
  minOrderValue: string;
  usageLimit: string;
};

const required = ["name", "value"] as const;

const fieldLabels: Record<string, string> = {
  name: "Name",
  value: "Value",
  startsAt: "Starts",
  expiresAt: "Ends",
  minOrderValue: "Minimum order value",
  usageLimit: "Usage limit",
  productIds: "Products",
  customerIds: "Customers",
};

function valuesOf(discount: DiscountDetail | undefined): FormValues {
  if (!discount) {
    return {
      name: "", discountType: "PRODUCT", pricingType: "PERCENT", value: "", active: true, startsAt: "", expiresAt: "",
      products: [], categoryIds: [], manufacturerIds: [], customers: [], allVips: false, minOrderValue: "", usageLimit: "",
    };
  }
  return {
    name: discount.name,
    discountType: discount.discountType,
    pricingType: discount.pricingType,
    // A percentage is stored as a fraction (0.15) and typed as the percentage (15).
    value: discount.pricingType === "PERCENT" ? percentAsTyped(discount.value) : discount.value.toFixed(2),
    active: discount.active,
    startsAt: discount.startsAt ? dateToShopDateTime(discount.startsAt) : "",
    expiresAt: discount.expiresAt ? dateToShopDateTime(discount.expiresAt) : "",
    products: discount.products,
    categoryIds: [],
    manufacturerIds: [],
    customers: discount.customers,
    allVips: false,
    minOrderValue: discount.minOrderValue ? discount.minOrderValue.toFixed(2) : "",
    usageLimit: discount.usageLimit ? String(discount.usageLimit) : "",
  };
}

/** The form's values as the schema reads them: the chosen products and customers by id. */
function inputOf({ products, customers, ...values }: FormValues): DiscountFormInput {
  return { ...values, productIds: products.map((product) => product.id), customerIds: customers.map((customer) => customer.id) };
}

/** What the targets would ask the server about, or null when the kind has none or nothing is chosen yet. */
function previewInputOf(values: FormValues, id: number | undefined): DiscountTargetPreviewInput | null {
  if (values.discountType !== "PRODUCT" && values.discountType !== "USER") return null;
  const input = inputOf(values);
  const chosen = values.discountType === "PRODUCT" ? input.productIds!.length + input.categoryIds!.length + input.manufacturerIds!.length : input.customerIds!.length + (input.allVips ? 1 : 0);
  if (chosen === 0 && id === undefined) return null;
  return {
    id,
    discountType: values.discountType,
    productIds: input.productIds,
    categoryIds: input.categoryIds,
    manufacturerIds: input.manufacturerIds,
    customerIds: input.customerIds,
    allVips: input.allVips,
  };
}

/** How the storefront will show the typed value (-15%, -€5.00), or null while it is not a valid value. */
function shownValue(pricingType: PricingType, typed: string): string | null {
  const read = readDiscountValue(pricingType, typed);
  return "value" in read ? formatDiscountValue({ pricingType, value: read.value }) : null;
}

/** The form's sections, padded inside its card so that their rules run from edge to edge. */
function Section(props: { title: string; description: string; children: ReactNode }) {
  return <FormSection {...props} className="px-5" />;
}

function Chip({ children, onRemove, label }: { children: ReactNode; onRemove: () => void; label: string }) {
  return (
    <li className="inline-flex max-w-full items-center gap-1 rounded-full border bg-muted/50 py-0.5 pr-1 pl-2.5 text-xs">
      <span className="truncate">{children}</span>
      <button type="button" onClick={onRemove} aria-label={label} className="rounded-full p-0.5 text-muted-foreground hover:bg-muted hover:text-foreground">
        <X className="size-3" />
      </button>
    </li>
  );
}

/** The chosen products, the first ones by name and how many more; each can be taken off, or all at once. */
const SHOWN_CHIPS = 60;

function ChosenList<T>({ items, render, keyOf, onRemove, onClear, noun }: {
  items: T[];
  render: (item: T) => ReactNode;
  keyOf: (item: T) => string | number;
  onRemove: (item: T) => void;
  onClear: () => void;
  noun: string;
}) {
  if (items.length === 0) return null;
  return (
    <div className="space-y-1.5">
      <div className="flex items-center justify-between text-xs text-muted-foreground">
        <span>
          {formatCount(items.length)} {noun}
          {items.length === 1 ? "" : "s"} chosen one by one
        </span>
        <button type="button" onClick={onClear} className="hover:text-destructive hover:underline">
          Remove all
        </button>
      </div>
      <ul className="flex max-h-48 flex-wrap gap-1.5 overflow-y-auto" aria-label={`Chosen ${noun}s`}>
        {items.slice(0, SHOWN_CHIPS).map((item) => (
          <Chip key={keyOf(item)} onRemove={() => onRemove(item)} label={`Remove ${String(keyOf(item))}`}>
            {render(item)}
          </Chip>
        ))}
        {items.length > SHOWN_CHIPS ? <li className="px-2 py-0.5 text-xs text-muted-foreground">and {formatCount(items.length - SHOWN_CHIPS)} more</li> : null}
      </ul>
    </div>
  );
}

function CustomerSearch({ chosen, onAdd }: { chosen: ReadonlySet<string>; onAdd: (customer: DiscountTargetCustomer) => void }) {
  const search = useSearchTerm();
  const customers = useDiscountCustomerSearch(search.term);
  return (
    <SearchToAdd
      label="Search customers to add"
      placeholder="Add a customer by name or e-mail"
      search={search}
      busy={customers.isFetching}
      rows={customers.data}
      added={chosen}
      onAdd={onAdd}
      listLabel="Customers found"
      noMatch={`No customer matches “${search.term.trim()}”.`}
    >
      {(row) => (
        <>
          <UserRound className="size-4 shrink-0 text-brass" />
          <span className="min-w-0 flex-1">
            <span className="block truncate font-medium">
              {row.name ?? row.email} {row.role === "VIP" ? <AdminBadge tone="brass">VIP</AdminBadge> : null}
            </span>
            <span className="block truncate text-xs text-muted-foreground">{row.email}</span>
          </span>
        </>
      )}
    </SearchToAdd>
  );
}

/** A list of groups (categories or manufacturers) chosen from a select, each shown as a chip with its path. */
function GroupPicker({ label, choices, chosen, onChange, empty }: { label: string; choices: DiscountGroupChoice[] | undefined; chosen: number[]; onChange: (ids: number[]) => void; empty: string }) {
  const byId = new Map(choices?.map((choice) => [choice.id, choice.label]));
  const id = `field-${label.toLowerCase()}`;
  return (
    <div className="space-y-1.5">
      <AdminLabel htmlFor={id}>{label}</AdminLabel>
      <AdminSelect
        id={id}
        value=""
        onChange={(event) => {
          const picked = Number(event.target.value);
          if (picked && !chosen.includes(picked)) onChange([...chosen, picked]);
        }}
      >
        <option value="">{empty}</option>
        {choices?.map((choice) => (
          <option key={choice.id} value={choice.id} disabled={chosen.includes(choice.id)}>
            {choice.label}
          </option>
        ))}
      </AdminSelect>
      {chosen.length ? (
        <ul className="flex flex-wrap gap-1.5" aria-label={`Chosen ${label.toLowerCase()}`}>
          {chosen.map((entry) => (
            <Chip key={entry} onRemove={() => onChange(chosen.filter((other) => other !== entry))} label={`Remove ${byId.get(entry) ?? entry}`}>
              {byId.get(entry) ?? `#${entry}`} <span className="text-muted-foreground">and below</span>
            </Chip>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** The warning before saving targets: how many get the discount, and how many move from another discount. */
function TargetPreview({ input, noun }: { input: DiscountTargetPreviewInput | null; noun: "product" | "customer" }) {
  const settled = useDebounced(JSON.stringify(input), SEARCH_PAUSE_MS);
  const preview = useDiscountTargetPreview(useMemo(() => JSON.parse(settled) as DiscountTargetPreviewInput | null, [settled]));
  if (!input) return <p className="text-xs text-muted-foreground">Nothing chosen yet: the discount applies to no {noun} until you choose some.</p>;
  if (preview.error) return <p className="text-xs text-destructive">{preview.error.message}</p>;
  const data = preview.data;
  if (!data) return <p className="text-xs text-muted-foreground">Counting…</p>;
  const plural = (count: number) => `${formatCount(count)} ${noun}${count === 1 ? "" : "s"}`;
  return (
    <div className={cn("space-y-1 rounded-md border px-3 py-2 text-xs", data.moved ? "border-amber-500/40 bg-amber-500/10" : "bg-muted/40", preview.isFetching && "opacity-70")} role="status" data-testid="target-preview">
      <p>
        Saving gives this discount to <strong>{plural(data.total)}</strong>
        {data.released ? `; ${plural(data.released)} holding it now will lose it` : ""}.
      </p>
      {data.moved ? (
        <p className="flex items-start gap-1.5 text-amber-800 dark:text-amber-300">
          <AlertTriangle className="mt-0.5 size-3.5 shrink-0" />
          <span>
            {plural(data.moved)} now {data.moved === 1 ? "holds" : "hold"} another discount and will move to this one:{" "}
            {data.movedFrom.map((from) => `${from.name} (${formatCount(from.count)})`).join(", ")}. A {noun} holds one discount at a time.
          </span>
        </p>
      ) : null}
    </div>
  );
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
        ? filledThenSchema(updateDiscountInput, required, (values: FormValues): UpdateDiscountInput => ({ id: discount.id, ...inputOf(values), discountType: discount.discountType }))
        : filledThenSchema(createDiscountInput, required, inputOf),
    [discount],
  );
  const form = useForm<FormValues, unknown, DiscountFormInput | UpdateDiscountInput>({ defaultValues: initial, resolver: resolver as never, shouldFocusError: false });
  const values = useWatch({ control: form.control }) as FormValues;
  const [missing, setMissing] = useState<Set<string>>(new Set());
  useEffect(() => form.reset(initial), [form, initial]);

  const create = useCreateDiscount();
  const update = useUpdateDiscount();
  const busy = create.isPending || update.isPending;
  const errors = form.formState.errors as Record<string, { message?: string } | undefined>;
  const errorOf = (name: string) => (missing.has(name) && !isFilled(values[name as keyof FormValues]) ? "Required" : errors[name]?.message);

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
  const refuse = (refused: FieldErrors<FormValues>) => showRefusal(refused, setMissing, (path) => fieldLabels[path] ?? path);

  const set = <K extends keyof FormValues>(name: K, value: FormValues[K]) => form.setValue(name, value as never, { shouldDirty: true });
  const type = values.discountType;
  const chosenProducts = useMemo(() => new Set(values.products?.map((product) => product.id)), [values.products]);
  const chosenCustomers = useMemo(() => new Set(values.customers?.map((customer) => customer.id)), [values.customers]);
  const shown = shownValue(values.pricingType, values.value ?? "");
  const register = form.register;
  const field = (name: string) => fieldProps(name, errorOf(name));

  return (
    <form noValidate aria-label={discount ? `Edit discount ${discount.name}` : "New discount"} onSubmit={form.handleSubmit((input) => submit(input).catch(() => undefined), refuse)}>
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
              <AdminInput {...field("value")} {...register("value")} inputMode="decimal" autoComplete="off" placeholder={values.pricingType === "PERCENT" ? "15" : "5.00"} />
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
                  {customer.name ?? customer.email} <span className="text-muted-foreground">{customer.email}</span>
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
                <AdminInput {...field("minOrderValue")} {...register("minOrderValue")} inputMode="decimal" autoComplete="off" placeholder="50.00" />
              </FormField>
              <FormField label="Usage limit (orders)" htmlFor="field-usageLimit" error={errorOf("usageLimit")} hint="Empty: no limit. Cancelled orders give their use back">
                <AdminInput {...field("usageLimit")} {...register("usageLimit")} inputMode="numeric" autoComplete="off" placeholder="100" />
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
