"use client";

import { Loader2, Plus, Search } from "lucide-react";
import { useState, type ReactNode } from "react";
import { useForm, useWatch, type UseFormReturn } from "react-hook-form";
import { Decimal } from "decimal.js";
import { toast } from "@/components/toast";
import { AdminInput } from "@/components/ui/admin-form-controls";
import { Button } from "@/components/ui/button";
import { euroRange } from "@/lib/amount-text";
import { formatEuro } from "@/lib/money";
import { cn } from "@/lib/utils";
import { costText, MAX_PURCHASE_PIECES, purchaseRecordInput, type PurchaseCurrency, type PurchaseRecordInput } from "@/server/stock/schemas";
import { formatPeso } from "../kit/format";
import { useFieldRefusals } from "../kit/forms/field-refusals";
import { filledThenSchema } from "../kit/forms/filled-resolver";
import { FormField, fieldProps } from "../kit/forms/form-field";
import { NumberInput } from "../kit/forms/number-input";
import { useAdminProducts } from "../catalog/queries";
import { useAddPurchase, useExchangeRate } from "./queries";

/**
 * One purchase for a box as staff type it, checked in the browser by the schema the server parses it with
 * (`purchaseRecordInput`), so pieces 0, a cost "abc" or "1.234" are named beside their field before anything is sent.
 * The box's page picks the product; the restock manager picks the box. Both add it through `admin.box.addPurchaseRecord`.
 */
export type PurchaseValues = { boxId: number; productId: number; quantity: string; unitCost: string; currency: PurchaseCurrency };

const required = ["boxId", "productId", "quantity", "unitCost"] as const;

const fieldLabels: Record<string, string> = { boxId: "Box", productId: "Product", quantity: "Pieces", unitCost: "Unit cost", currency: "Currency" };

function toInput(values: PurchaseValues): PurchaseRecordInput {
  const pieces = values.quantity.trim();
  return { boxId: values.boxId, productId: values.productId, quantity: pieces === "" ? Number.NaN : Number(pieces), unitCost: values.unitCost, currency: values.currency };
}

const resolver = filledThenSchema<PurchaseValues, PurchaseRecordInput>(purchaseRecordInput, required, toInput);

/** A purchase form's state, its refusals on the fields and its submit, which adds the purchase and says so. */
export function usePurchaseForm(defaults: Pick<PurchaseValues, "boxId" | "productId"> & Partial<PurchaseValues>, onAdded?: (input: PurchaseRecordInput) => void) {
  const form = useForm<PurchaseValues, unknown, PurchaseRecordInput>({
    defaultValues: { quantity: "1", unitCost: "", currency: "EUR", ...defaults },
    resolver,
    shouldFocusError: false,
  });
  const refusals = useFieldRefusals(form, { label: (path) => fieldLabels[path] ?? path });
  const add = useAddPurchase({ onSuccess: () => undefined });
  const onSubmit = form.handleSubmit(
    (input) =>
      add
        .mutateAsync(input)
        .then(() => {
          // Ready for the next purchase: the same box and currency; the product as given (none on the box's page).
          form.reset({ ...form.getValues(), productId: defaults.productId, quantity: "1", unitCost: "" });
          onAdded?.(input);
        })
        .catch(refusals.refuseFromServer),
    refusals.refuse,
  );
  return { form, errorOf: refusals.errorOf, onSubmit, busy: add.isPending };
}

/** What a typed cost comes to in the other currency, at the stored rate; nothing while the cost is not an amount. */
function useConverted(unitCost: string, currency: PurchaseCurrency) {
  const rate = useExchangeRate();
  const parsed = costText.safeParse(unitCost);
  if (!parsed.success || !rate.data) return null;
  const cost = new Decimal(parsed.data);
  return currency === "EUR" ? formatPeso(cost.times(rate.data.rate)) : formatEuro(cost.dividedBy(rate.data.rate));
}

/** Pieces and the cost of one piece, in euros or pesos, each with its refusal under it. */
export function PurchaseFields({ form, errorOf, className }: { form: UseFormReturn<PurchaseValues, unknown, PurchaseRecordInput>; errorOf: (path: string) => string | undefined; className?: string }) {
  const [unitCost, currency] = useWatch({ control: form.control, name: ["unitCost", "currency"] });
  const converted = useConverted(unitCost, currency);
  return (
    <>
      <FormField label="Pieces" htmlFor="field-quantity" required error={errorOf("quantity")} hint={`1 to ${MAX_PURCHASE_PIECES.toLocaleString("en-GB")}`} className={className}>
        <NumberInput {...fieldProps("quantity", errorOf("quantity"), true)} {...form.register("quantity")} min={1} max={MAX_PURCHASE_PIECES} />
      </FormField>
      <FormField label="Unit cost" htmlFor="field-unitCost" required error={errorOf("unitCost")} hint={converted ? `≈ ${converted} each` : "The price of one piece"} className={className}>
        <div className="flex">
          <NumberInput {...fieldProps("unitCost", errorOf("unitCost"), true)} {...form.register("unitCost")} {...euroRange} className="min-w-0 rounded-r-none" placeholder="0.00" />
          <div className="flex rounded-r-md border border-l-0 border-input text-xs" role="radiogroup" aria-label="Currency">
            {(["EUR", "PHP"] as const).map((value) => (
              <button
                key={value}
                type="button"
                role="radio"
                aria-checked={currency === value}
                onClick={() => form.setValue("currency", value, { shouldDirty: true })}
                className={cn("px-2 font-medium last:rounded-r-md", currency === value ? "bg-primary text-primary-foreground" : "bg-card text-muted-foreground hover:text-foreground")}
              >
                {value === "EUR" ? "€" : "₱"}
              </button>
            ))}
          </div>
        </div>
      </FormField>
    </>
  );
}

/** The product of a purchase on the box's page: found by name or #id. */
function ProductPicker({ picked, onPick, error }: { picked: { id: number; name: string } | null; onPick: (product: { id: number; name: string } | null) => void; error?: string }) {
  const [search, setSearch] = useState("");
  const matches = useAdminProducts({ search: search.trim(), pageSize: 25, page: 1, sort: "updatedAt", direction: "desc" }, search.trim().length >= 2 && !picked);
  return (
    <FormField label="Product" htmlFor="field-productId" required error={error} className="relative">
      {picked ? (
        <div className="flex h-9 items-center justify-between rounded-md border bg-card px-3 text-sm">
          <span className="truncate">
            <span className="text-muted-foreground">#{picked.id}</span> {picked.name}
          </span>
          <button type="button" className="text-xs text-primary hover:underline" onClick={() => onPick(null)}>
            change
          </button>
        </div>
      ) : (
        <div className="relative">
          <Search className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground" />
          <AdminInput {...fieldProps("productId", error, true)} className="pl-8" value={search} onChange={(event) => setSearch(event.target.value)} placeholder="Search by name or #id" autoComplete="off" />
        </div>
      )}
      {!picked && search.trim().length >= 2 && matches.data ? (
        <ul role="listbox" aria-label="Matching products" className="absolute inset-x-0 top-full z-20 mt-1 max-h-64 overflow-y-auto rounded-md border bg-popover py-1 shadow-lg">
          {matches.data.rows.length === 0 ? <li className="px-3 py-2 text-sm text-muted-foreground">No product matches.</li> : null}
          {matches.data.rows.map((row) => (
            <li key={row.id}>
              <button
                type="button"
                role="option"
                aria-selected={false}
                className="flex w-full items-center gap-2 px-3 py-1.5 text-left text-sm hover:bg-accent"
                onClick={() => {
                  setSearch("");
                  onPick({ id: row.id, name: row.name });
                }}
              >
                <span className="w-12 shrink-0 text-xs text-muted-foreground">#{row.id}</span>
                <span className="truncate">{row.name}</span>
                <span className="ml-auto shrink-0 text-xs text-muted-foreground">{row.stock} in stock</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </FormField>
  );
}

/** A purchase form's submit button. */
export function AddPurchaseButton({ busy, children = "Add purchase" }: { busy: boolean; children?: ReactNode }) {
  return (
    <Button type="submit" size="sm" className="h-9" disabled={busy}>
      {busy ? <Loader2 className="animate-spin" /> : <Plus />} {children}
    </Button>
  );
}

/** The box page's form under its purchases: a product, its pieces and their cost. */
export function AddPurchase({ boxId }: { boxId: number }) {
  const [picked, setPicked] = useState<{ id: number; name: string } | null>(null);
  const { form, errorOf, onSubmit, busy } = usePurchaseForm({ boxId, productId: Number.NaN }, (input) => {
    toast.success("Purchase added", { description: `${input.quantity} × ${picked?.name}` });
    setPicked(null);
  });
  const pick = (product: { id: number; name: string } | null) => {
    setPicked(product);
    form.setValue("productId", product?.id ?? Number.NaN);
    if (product) form.clearErrors("productId");
  };
  return (
    <form noValidate onSubmit={onSubmit} className="grid grid-cols-[minmax(0,1fr)] items-start gap-3 border-t bg-muted/20 px-4 pt-3 pb-4 md:grid-cols-[minmax(0,1fr)_8rem_13rem_auto]" aria-label="Add a purchase">
      <ProductPicker picked={picked} onPick={pick} error={errorOf("productId")} />
      <PurchaseFields form={form} errorOf={errorOf} />
      <div className="md:pt-5">
        <AddPurchaseButton busy={busy} />
      </div>
    </form>
  );
}
