"use client";

import { Loader2, Save } from "lucide-react";
import { useRouter } from "next/navigation";
import { Fragment, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { useFieldArray, useForm, useWatch, type FieldErrors, type UseFormRegister } from "react-hook-form";
import { toast } from "@/components/toast";
import { AdminCard } from "@/components/ui/admin-card";
import { AdminInput, AdminLabel, AdminSelect } from "@/components/ui/admin-form-controls";
import { Button } from "@/components/ui/button";
import { addressFromBook } from "@/features/checkout/address-section";
import type { ShippingMethod } from "@/lib/enums";
import { paymentMethodLabels, shippingMethodLabels } from "@/lib/labels";
import { formatEuro } from "@/lib/money";
import { cn } from "@/lib/utils";
import { addressFields, addressLines, type Address, type CustomerMatch } from "@/server/account/schemas";
import {
  createCounterSaleInput,
  createManualOrderInput,
  updateManualOrderInput,
  type CreateCounterSaleInput,
  type CreateManualOrderInput,
  type EditableManualOrder,
  type ManualOrderQuoteInput,
  type UpdateManualOrderInput,
} from "@/server/orders/manual-order-schemas";
import { filledThenSchema, showRefusal } from "../kit/forms/filled-resolver";
import { FormField, fieldProps } from "../kit/forms/form-field";
import { isFilled } from "../kit/forms/is-filled";
import { useDebounced } from "../kit/forms/use-debounced";
import { ProductPicker } from "../catalog/product-picker";
import { CustomerPicker } from "./manual-order-customer";
import { OrderLines, type ManualOrderFormLine } from "./manual-order-lines";
import { QUOTE_PAUSE_MS, useCreateCounterSale, useCreateManualOrder, useManualOrderQuote, useShippingCountries, useUpdateManualOrder } from "./manual-order-queries";
import { QuoteSummary } from "./manual-order-summary";
import {
  counterSaleInputOf,
  createInputOf,
  fieldLabels,
  isCounterSale,
  orderAddressFields,
  quoteInputOf,
  requiredForBoth,
  requiredForCounterSale,
  requiredToCreate,
  savedEditMessage,
  updateInputOf,
  valuesOf,
  type ManualOrderFormValues,
} from "./manual-order-values";

type FormInput = CreateManualOrderInput | UpdateManualOrderInput | CreateCounterSaleInput;

/** How an order leaves: the two ways to send it, and (a new order only) collected in the shop. */
const leaveHints: Record<ShippingMethod, string | null> = {
  TNT: null,
  UNTRACKED: null,
  COLLECTED: "Paid at the counter and taken along: no address, no shipping",
};

function Section({ title, description, children }: { title: string; description: string; children: ReactNode }) {
  return (
    <section className="space-y-3 border-b px-4 py-5 last:border-b-0 sm:px-5">
      <div>
        <h3 className="font-sans text-sm font-semibold tracking-normal">{title}</h3>
        <p className="mt-0.5 text-xs text-muted-foreground">{description}</p>
      </div>
      {children}
    </section>
  );
}

/**
 * A manual order: a new one (a phone or counter sale) or an edit of an order not yet shipped. The form validates
 * with the server's own schema, and the totals beside it are the server's price of the form as it stands.
 */
export function ManualOrderForm({ order }: { order?: EditableManualOrder }) {
  const router = useRouter();
  const countries = useShippingCountries();
  const [customer, setCustomer] = useState<CustomerMatch | null>(order?.customer ?? null);
  const [invalid, setInvalid] = useState<Set<string>>(new Set());
  // The schema's reason for the field it refused ("Enter a Dutch postcode like 1234 AB"), shown under that field.
  const [reason, setReason] = useState<{ field: string; message: string } | null>(null);
  const initial = useMemo(() => valuesOf(order), [order]);
  // The resolver reads the choice between sending and a counter sale when the form is submitted.
  const counterRef = useRef(false);
  const resolver = useMemo(() => {
    if (order) return filledThenSchema(updateManualOrderInput, requiredForBoth, updateInputOf(order.orderNumber));
    const delivered = filledThenSchema(createManualOrderInput, requiredToCreate, createInputOf(customer?.id ?? null));
    const counterSale = filledThenSchema(createCounterSaleInput, requiredForCounterSale, counterSaleInputOf(customer?.id ?? null));
    return ((...args: Parameters<typeof delivered>) => (counterRef.current ? counterSale(...(args as unknown as Parameters<typeof counterSale>)) : delivered(...args))) as typeof delivered;
  }, [order, customer]);
  const form = useForm<ManualOrderFormValues, unknown, FormInput>({ defaultValues: initial, resolver: resolver as never, shouldFocusError: false });
  const lines = useFieldArray({ control: form.control, name: "lines", keyName: "key" });
  const values = useWatch({ control: form.control }) as ManualOrderFormValues;
  useEffect(() => form.reset(initial), [form, initial]);
  const counter = !order && isCounterSale(values);
  useEffect(() => {
    counterRef.current = counter;
  }, [counter]);
  const required = new Set<string>(order ? requiredForBoth : counter ? requiredForCounterSale : requiredToCreate);

  const quoteKey = useDebounced(JSON.stringify(quoteInputOf(values, order?.orderNumber)), QUOTE_PAUSE_MS);
  const quote = useManualOrderQuote(useMemo(() => JSON.parse(quoteKey) as ManualOrderQuoteInput | null, [quoteKey]));
  const quoted = useMemo(() => new Map(quote.data?.lines.map((line) => [line.productId, line])), [quote.data]);

  const create = useCreateManualOrder();
  const createCounterSale = useCreateCounterSale();
  const update = useUpdateManualOrder();
  const busy = create.isPending || createCounterSale.isPending || update.isPending;
  const country = countries.data?.find((entry) => entry.code === values.countryCode);
  const taken = useMemo(() => new Set(values.lines?.map((line) => line.productId)), [values.lines]);

  const useAddress = (address: Address) => {
    if (!countries.data) return;
    const filled = addressFromBook(address, countries.data);
    for (const field of orderAddressFields) form.setValue(field, filled[field] ?? "", { shouldDirty: true });
    if (address.email && !form.getValues("email")) form.setValue("email", address.email, { shouldDirty: true });
  };
  const chooseCustomer = (chosen: CustomerMatch | null) => {
    setCustomer(chosen);
    if (chosen && !form.getValues("email")) form.setValue("email", chosen.email, { shouldDirty: true });
    // The account's name is the buyer's, for a counter sale's invoice, until staff type another.
    const [first, ...rest] = chosen?.name?.trim().split(/\s+/) ?? [];
    if (first && rest.length && !form.getValues("firstName") && !form.getValues("lastName")) {
      form.setValue("firstName", first, { shouldDirty: true });
      form.setValue("lastName", rest.join(" "), { shouldDirty: true });
    }
  };

  const submit = async (input: FormInput) => {
    setInvalid(new Set());
    if ("orderNumber" in input) {
      const saved = await update.mutateAsync(input);
      toast.success("Saved", { description: savedEditMessage(saved) });
      return;
    }
    const saved = "buyer" in input ? await createCounterSale.mutateAsync(input) : await create.mutateAsync(input);
    toast.success("buyer" in input ? "Counter sale saved" : "Order created", {
      description: `${saved.orderNumber} for ${formatEuro(saved.total)}${"buyer" in input ? ", shipped and collected" : ""}`,
    });
    router.push(`/admin/orders/${saved.orderNumber}`);
  };
  const refuse = (errors: FieldErrors<ManualOrderFormValues>) => {
    // The schema reads the address nested ("address.postCode"); the form holds it flat, by the last part.
    const fieldOf = (path: string) => path.split(".").at(-1)!;
    const missing = Object.values(errors).some((error) => error?.type === "required");
    const first = showRefusal(errors, setInvalid, (path) =>
      path.startsWith("lines.") ? `Line ${Number(path.split(".")[1]) + 1}` : (fieldLabels[fieldOf(path) as keyof typeof fieldLabels] ?? fieldOf(path)),
    );
    // The field the schema refused is marked too, not only the empty required ones.
    if (!missing && first) setInvalid(new Set([fieldOf(first.path)]));
    setReason(!missing && first ? { field: fieldOf(first.path), message: first.message } : null);
  };

  const register = form.register;
  // A required field marked empty by a refused submit is unmarked as soon as it is filled.
  const marked = new Set([...invalid].filter((name) => name === reason?.field || !required.has(name) || !isFilled(values[name as keyof ManualOrderFormValues])));
  const markedError = (name: string) => (marked.has(name) ? (reason?.field === name ? reason.message : "Required") : undefined);
  const field = (name: keyof ManualOrderFormValues) => fieldProps(name, markedError(name), required.has(name));
  // Staff type a customer's address: the browser's autofill (the address fields' autoComplete) would offer their own.
  const text = (name: keyof typeof fieldLabels, props: { className?: string; autoComplete?: string; type?: string; placeholder?: string } = {}) => (
    <FormField label={fieldLabels[name]} htmlFor={`field-${name}`} required={required.has(name)} error={markedError(name)} className={props.className}>
      <AdminInput {...field(name)} {...register(name)} type={props.type} autoComplete={props.autoComplete ?? "off"} placeholder={props.placeholder} />
    </FormField>
  );
  const shippingOptions = quote.data?.shipping?.options;
  // The country select can only show the order's country once its options are there.
  if (!countries.data) return <div className="h-[32rem] animate-pulse rounded-lg border bg-muted/40" aria-busy="true" />;

  return (
    <form
      noValidate
      aria-label={order ? `Edit order ${order.orderNumber}` : "New order"}
      onSubmit={form.handleSubmit((input) => submit(input).catch(() => undefined), refuse)}
      className="grid grid-cols-[minmax(0,1fr)] items-start gap-4 lg:grid-cols-[minmax(0,1fr)_20rem]"
    >
      <AdminCard>
        {order ? null : (
          <Section title="Customer" description="A customer with an account sees the order in their order history.">
            <CustomerPicker customer={customer} onChoose={chooseCustomer} onUseAddress={useAddress} />
          </Section>
        )}
        <Section title="Products" description="The shop's price in force, or an override of what the whole line costs, with a reason.">
          <ProductPicker inStockOnly taken={taken} onAdd={(product) => lines.append({ productId: product.id, name: product.name, quantity: 1, priceOverride: "", priceOverrideReason: "", soldReason: null })} />
          <div id="field-lines" tabIndex={-1} className={cn("rounded-md", marked.has("lines") && "ring-2 ring-destructive/40")}>
            <OrderLines
              lines={lines.fields.map((line, index) => ({ ...line, ...values.lines?.[index], key: line.key }))}
              register={register as unknown as UseFormRegister<{ lines: ManualOrderFormLine[] }>}
              errors={form.formState.errors.lines}
              quoted={quoted}
              onRemove={lines.remove}
            />
          </div>
        </Section>
        <Section title="Shipping" description={order ? "Priced as checkout prices it." : "Sent and priced as checkout prices it, or collected in the shop."}>
          <AdminLabel required>Shipping method</AdminLabel>
          <fieldset className={cn("grid gap-2", order ? "sm:grid-cols-2" : "sm:grid-cols-3")} aria-label="Shipping method" id="field-shippingMethod" tabIndex={-1}>
            {(order ? (["TNT", "UNTRACKED"] as const) : (["TNT", "UNTRACKED", "COLLECTED"] as const)).map((method) => {
              const option = shippingOptions?.find((candidate) => candidate.method === method);
              return (
                <label
                  key={method}
                  className={cn(
                    "flex cursor-pointer items-start gap-2 rounded-md border px-3 py-2 text-sm has-[:checked]:border-primary has-[:checked]:bg-accent/40",
                    option && !option.available && "opacity-60",
                  )}
                >
                  <input type="radio" value={method} className="mt-0.5 size-4 accent-[var(--primary)]" {...register("shippingMethod")} />
                  <span>
                    <span className="block font-medium">{shippingMethodLabels[method]}</span>
                    <span className="block text-xs text-muted-foreground">
                      {leaveHints[method] ?? (option ? (option.available ? formatEuro(option.cost) : option.unavailableReason) : "Choose a country for the price")}
                    </span>
                  </span>
                </label>
              );
            })}
          </fieldset>
          {counter ? null : (
            <div className="grid gap-3 sm:grid-cols-2">
              <label className="flex items-start gap-2 text-sm">
                <input type="checkbox" className="mt-0.5 size-4 accent-[var(--primary)]" {...register("waiveShipping")} />
                <span>
                  Charge no shipping
                  <span className="block text-xs text-muted-foreground">Postage given away.</span>
                </span>
              </label>
              <FormField label="Ship no earlier than" htmlFor="field-shipOn" hint="Leave empty to ship on the next shipping day">
                <AdminInput type="date" {...field("shipOn")} {...register("shipOn")} />
              </FormField>
            </div>
          )}
        </Section>
        {counter ? (
          <Section title="Buyer" description="Whom the invoice is made out to; with an e-mail address they get the order confirmation.">
            <div className="grid gap-3 sm:grid-cols-2">
              {text("firstName")}
              {text("lastName")}
              {text("companyName", { className: "sm:col-span-2" })}
              {text("phoneNumber", { type: "tel", placeholder: "+31 6 12345678" })}
              {text("email", { type: "email", placeholder: "customer@example.com" })}
            </div>
          </Section>
        ) : (
          <Section title="Ship to" description="Where the parcel goes, and who to tell about it.">
            <div className="grid gap-3 sm:grid-cols-2">
              {addressLines.map((line) => (
                <Fragment key={line}>{text(line, { className: addressFields[line].wide ? "sm:col-span-2" : undefined })}</Fragment>
              ))}
              {text("phoneNumber", { type: "tel", placeholder: "+31 6 12345678" })}
              {text("email", { type: "email", placeholder: "customer@example.com" })}
              <FormField label={fieldLabels.countryCode} htmlFor="field-countryCode" required error={markedError("countryCode")}>
                <AdminSelect {...field("countryCode")} {...register("countryCode", { onChange: () => form.setValue("stateCode", "") })}>
                  <option value="">Choose a country</option>
                  {countries.data?.map((entry) => (
                    <option key={entry.code} value={entry.code}>
                      {entry.name}
                    </option>
                  ))}
                </AdminSelect>
              </FormField>
              {country?.regions.length ? (
                <FormField label={fieldLabels.stateCode} htmlFor="field-stateCode" required error={markedError("stateCode")}>
                  <AdminSelect {...field("stateCode")} {...register("stateCode")}>
                    <option value="">Choose</option>
                    {country.regions.map((region) => (
                      <option key={region.code} value={region.code}>
                        {region.name}
                      </option>
                    ))}
                  </AdminSelect>
                </FormField>
              ) : null}
            </div>
          </Section>
        )}
        {order ? null : (
          <Section title="Payment" description={counter ? "Paid at the counter." : "Paid to staff, never through a payment provider."}>
            <AdminLabel required className={cn(marked.has("paymentMethod") && "text-destructive")}>
              Payment method
            </AdminLabel>
            <fieldset className="grid gap-2 sm:grid-cols-2" aria-label="Payment method" id="field-paymentMethod" tabIndex={-1}>
              {(
                [
                  ["BANKTRANSFER", "Into the shop's bank account"],
                  ["ACCOUNT", "Cash or card at the counter, or the customer's account with the shop"],
                ] as const
              ).map(([method, hint]) => (
                <label
                  key={method}
                  className={cn(
                    "flex cursor-pointer items-start gap-2 rounded-md border px-3 py-2 text-sm has-[:checked]:border-primary has-[:checked]:bg-accent/40",
                    marked.has("paymentMethod") && "border-destructive",
                  )}
                >
                  <input type="radio" value={method} className="mt-0.5 size-4 accent-[var(--primary)]" {...register("paymentMethod")} />
                  <span>
                    <span className="block font-medium">{paymentMethodLabels[method]}</span>
                    <span className="block text-xs text-muted-foreground">{hint}</span>
                  </span>
                </label>
              ))}
            </fieldset>
            <label className={cn("flex items-start gap-2 text-sm", counter && "hidden")}>
              <input type="checkbox" className="mt-0.5 size-4 accent-[var(--primary)]" {...register("paid")} />
              <span>
                The money is in: mark the order paid
                <span className="block text-xs text-muted-foreground">Unticked, the order waits as Pending on account until you mark it paid.</span>
              </span>
            </label>
          </Section>
        )}
      </AdminCard>
      <QuoteSummary
        quote={quote.data}
        loading={quote.isFetching}
        error={quote.error ? quote.error.message : null}
        collected={counter}
        action={
          <Button type="submit" className="w-full" disabled={busy}>
            {busy ? <Loader2 className="animate-spin" /> : <Save />} {order ? "Save changes" : counter ? "Save counter sale" : "Create order"}
          </Button>
        }
      />
    </form>
  );
}
