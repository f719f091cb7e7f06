"use client";

import { Decimal } from "decimal.js";
import { AlertTriangle, Loader2, Plus, Save, UserRound, X } from "lucide-react";
import { useRouter } from "next/navigation";
import { useEffect, useMemo, useState, type ReactNode } from "react";
import { useForm, useWatch, type FieldErrors } from "react-hook-form";
import { toast } from "@/components/toast";
import { AdminBadge } from "@/components/ui/admin-badge";
import { AdminCard } from "@/components/ui/admin-card";
import { AdminInput, AdminLabel, AdminSelect, AdminSwitch } from "@/components/ui/admin-form-controls";
import { Button } from "@/components/ui/button";
import { euroText, percentText } from "@/lib/amount-text";
import { discountTypes, type DiscountType, type PricingType } from "@/lib/enums";
import { cn } from "@/lib/utils";
import {
  createDiscountInput,
  dateToShopDateTime,
  updateDiscountInput,
  type DiscountDetail,
  type DiscountFormInput,
  type DiscountGroupChoice,
  type DiscountTargetCustomer,
  type DiscountTargetPreviewInput,
  type DiscountTargetProduct,
  type UpdateDiscountInput,
} from "@/server/discounts/admin-schemas";
import { filledThenSchema, showRefusal } from "../forms/filled-resolver";
import { isFilled } from "../forms/is-filled";
import { formatCount, formatEuro } from "../format";
import { SEARCH_PAUSE_MS, useDebounced } from "../orders/manual-order-queries";
import { SearchField } from "../orders/manual-order-search";
import { discountTypeHints, discountTypeLabels } from "./labels";
import {
  useCreateDiscount,
  useDiscountCustomerSearch,
  useDiscountProductSearch,
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
    value: discount.pricingType === "PERCENT" ? discount.value.times(100).toString() : discount.value.toFixed(2),
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

function inputOf(values: FormValues): DiscountFormInput {
  return {
    name: values.name,
    discountType: values.discountType,
    pricingType: values.pricingType,
    value: values.value,
    active: values.active,
    startsAt: values.startsAt,
    expiresAt: values.expiresAt,
    productIds: values.products.map((product) => product.id),
    categoryIds: values.categoryIds,
    manufacturerIds: values.manufacturerIds,
    customerIds: values.customers.map((customer) => customer.id),
    allVips: values.allVips,
    minOrderValue: values.minOrderValue,
    usageLimit: values.usageLimit,
  };
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
  if (pricingType === "PERCENT") {
    const read = percentText.safeParse(typed);
    return read.success ? `-${read.data.times(100).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toString()}%` : null;
  }
  const read = euroText.safeParse(typed);
  return read.success && read.data.greaterThan(0) ? `-${formatEuro(read.data)}` : null;
}

function Section({ title, description, children }: { title: string; description: string; children: ReactNode }) {
  return (
    <section className="grid gap-x-8 gap-y-3 border-b px-5 py-5 last:border-b-0 lg:grid-cols-[14rem_1fr]">
      <div>
        <h3 className="font-sans text-sm font-semibold tracking-normal">{title}</h3>
        <p className="mt-1 text-xs text-muted-foreground">{description}</p>
      </div>
      <div className="min-w-0 space-y-3">{children}</div>
    </section>
  );
}

function FormField({ label, htmlFor, required: isRequired, error, hint, className, children }: {
  label: string;
  htmlFor: string;
  required?: boolean;
  error?: string;
  hint?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={cn("space-y-1", className)} data-invalid={error ? true : undefined}>
      <AdminLabel htmlFor={htmlFor} required={isRequired} className={cn(error && "text-destructive")}>
        {label}
      </AdminLabel>
      {children}
      {error ? <p className="text-[11px] text-destructive">{error}</p> : hint ? <p className="text-[11px] text-muted-foreground">{hint}</p> : null}
    </div>
  );
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

function ProductSearch({ chosen, onAdd }: { chosen: ReadonlySet<number>; onAdd: (product: DiscountTargetProduct) => void }) {
  const [search, setSearch] = useState("");
  const term = useDebounced(search, SEARCH_PAUSE_MS);
  const products = useDiscountProductSearch(term);
  const rows = term.trim().length >= 2 ? products.data?.rows : undefined;
  const add = (product: DiscountTargetProduct) => {
    onAdd({ id: product.id, name: product.name });
    setSearch("");
  };
  return (
    <div className="space-y-2">
      <SearchField
        label="Search products to add"
        placeholder="Add a product by name, brand or #id"
        value={search}
        onChange={setSearch}
        busy={products.isFetching}
        onKeyDown={(event) => {
          if (event.key !== "Enter") return;
          event.preventDefault();
          const first = rows?.find((row) => !chosen.has(row.id));
          if (first) add(first);
        }}
      />
      {rows ? (
        rows.length ? (
          <ul className="max-h-56 divide-y overflow-y-auto rounded-md border" aria-label="Products found">
            {rows.map((row) => (
              <li key={row.id} className="flex items-center gap-3 px-3 py-1.5 text-sm">
                <span className="min-w-0 flex-1">
                  <span className="block truncate font-medium">{row.name}</span>
                  <span className="text-xs text-muted-foreground">
                    #{row.id} · {formatEuro(row.price)}
                    {row.category ? ` · ${row.category}` : ""}
                    {row.wsStatus === "OFFLINE" ? " · not in the web shop" : ""}
                  </span>
                </span>
                <Button type="button" size="sm" variant="outline" disabled={chosen.has(row.id)} onClick={() => add(row)}>
                  <Plus /> {chosen.has(row.id) ? "Added" : "Add"}
                </Button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-xs text-muted-foreground">No product matches “{term.trim()}”.</p>
        )
      ) : null}
    </div>
  );
}

function CustomerSearch({ chosen, onAdd }: { chosen: ReadonlySet<string>; onAdd: (customer: DiscountTargetCustomer) => void }) {
  const [search, setSearch] = useState("");
  const term = useDebounced(search, SEARCH_PAUSE_MS);
  const customers = useDiscountCustomerSearch(term);
  const rows = term.trim().length >= 2 ? customers.data : undefined;
  const add = (customer: DiscountTargetCustomer) => {
    onAdd(customer);
    setSearch("");
  };
  return (
    <div className="space-y-2">
      <SearchField label="Search customers to add" placeholder="Add a customer by name or e-mail" value={search} onChange={setSearch} busy={customers.isFetching} />
      {rows ? (
        rows.length ? (
          <ul className="max-h-56 divide-y overflow-y-auto rounded-md border" aria-label="Customers found">
            {rows.map((row) => (
              <li key={row.id} className="flex items-center gap-3 px-3 py-1.5 text-sm">
                <UserRound className="size-4 shrink-0 text-brass" />
                <span className="min-w-0 flex-1">
                  <span className="block truncate font-medium">
                    {row.name ?? row.email} {row.role === "VIP" ? <AdminBadge tone="brass">VIP</AdminBadge> : null}
                  </span>
                  <span className="block truncate text-xs text-muted-foreground">{row.email}</span>
                </span>
                <Button type="button" size="sm" variant="outline" disabled={chosen.has(row.id)} onClick={() => add(row)}>
                  <Plus /> {chosen.has(row.id) ? "Added" : "Add"}
                </Button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-xs text-muted-foreground">No customer matches “{term.trim()}”.</p>
        )
      ) : null}
    </div>
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
  const refuse = (refused: FieldErrors<FormValues>) => {
    if (Object.values(refused).some((error) => error?.type === "required")) return showRefusal(refused, setMissing);
    const [field, error] = Object.entries(refused as Record<string, { message?: string }>)[0] ?? [];
    if (!field) return;
    toast.error("Error", { description: `${fieldLabels[field] ?? field}: ${error?.message ?? "is not valid"}` });
    document.getElementById(`field-${field}`)?.focus();
  };

  const set = <K extends keyof FormValues>(name: K, value: FormValues[K]) => form.setValue(name, value as never, { shouldDirty: true });
  const type = values.discountType;
  const chosenProducts = useMemo(() => new Set(values.products?.map((product) => product.id)), [values.products]);
  const chosenCustomers = useMemo(() => new Set(values.customers?.map((customer) => customer.id)), [values.customers]);
  const shown = shownValue(values.pricingType, values.value ?? "");
  const register = form.register;
  const field = (name: string) => ({ id: `field-${name}`, "aria-invalid": errorOf(name) ? true : undefined });

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
            <ProductSearch chosen={chosenProducts} onAdd={(product) => set("products", [...values.products, product])} />
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
      <div className="sticky bottom-0 z-10 -mx-5 mt-4 flex items-center justify-end gap-3 border-t bg-background/90 px-5 py-3 backdrop-blur">
        <p className="mr-auto text-xs text-muted-foreground">
          Fields marked <span className="text-destructive">*</span> are required.
        </p>
        <Button type="button" variant="outline" size="sm" onClick={() => router.back()}>
          Cancel
        </Button>
        <Button type="submit" size="sm" disabled={busy}>
          {busy ? <Loader2 className="animate-spin" /> : <Save />}
          {discount ? "Save changes" : "Create discount"}
        </Button>
      </div>
    </form>
  );
}
