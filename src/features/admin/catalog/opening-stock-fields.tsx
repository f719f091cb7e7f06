"use client";

import { AdminInput, AdminSelect } from "@/components/ui/admin-form-controls";
import { openingStockInput, type OpeningStockInput } from "@/server/catalog/admin-schemas";
import { plural } from "@/lib/plural";
import { MAX_PURCHASE_PIECES, purchaseCurrencies, type PurchaseCurrency } from "@/server/stock/schemas";
import { FormField, fieldProps } from "../kit/forms/form-field";
import { FormSection } from "../kit/forms/form-layout";
import { NumberInput } from "../kit/forms/number-input";
import { useBoxes } from "../stock/queries";

/** The new product form's opening stock as typed: none, pieces counted in the shop, or pieces bought into an open box. */
export type OpeningStockDraft = {
  kind: "none" | "correction" | "box";
  quantity: string;
  comment: string;
  boxId: string;
  unitCost: string;
  currency: PurchaseCurrency;
};

export const noOpeningStock: OpeningStockDraft = { kind: "none", quantity: "", comment: "Opening stock", boxId: "", unitCost: "", currency: "EUR" };

/**
 * The opening stock to send with the new product, read by the schema the server parses it with: `errors` by field
 * when it refuses it (the form marks them and sends nothing).
 */
export function readOpeningStock(draft: OpeningStockDraft): { value?: OpeningStockInput; errors: Record<string, string> } {
  if (draft.kind === "none") return { errors: {} };
  const raw =
    draft.kind === "correction"
      ? { kind: draft.kind, quantity: Number(draft.quantity || Number.NaN), comment: draft.comment }
      : { kind: draft.kind, quantity: Number(draft.quantity || Number.NaN), boxId: Number(draft.boxId || Number.NaN), unitCost: draft.unitCost, currency: draft.currency };
  const parsed = openingStockInput.safeParse(raw);
  if (parsed.success) return { value: raw as OpeningStockInput, errors: {} };
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? "quantity");
    errors[field] ??= issue.code === "invalid_type" ? "Required" : issue.message;
  }
  return { errors };
}

const choices = [
  { value: "none", label: "None yet" },
  { value: "correction", label: "Counted in the shop" },
  { value: "box", label: "Bought, in an open box" },
] as const;

/** The opening stock section of the new product form. */
export function OpeningStockFields({ value, onChange, errors }: { value: OpeningStockDraft; onChange: (value: OpeningStockDraft) => void; errors: Record<string, string> }) {
  const boxes = useBoxes(["OPEN"]);
  const set = (changes: Partial<OpeningStockDraft>) => onChange({ ...value, ...changes });
  const field = (name: string) => fieldProps(`opening-${name}`, errors[name], true);
  return (
    <FormSection
      title="Opening stock"
      description="Pieces counted in the shop are booked through the ledger as a correction; pieces bought go into an open box and reach stock when it arrives."
      bodyClassName="grid gap-3 sm:grid-cols-2 xl:grid-cols-3"
    >
      <FormField label="Opening stock" htmlFor="field-opening-kind">
        <AdminSelect id="field-opening-kind" value={value.kind} onChange={(event) => set({ kind: event.target.value as OpeningStockDraft["kind"] })}>
          {choices.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </AdminSelect>
      </FormField>
      {value.kind === "none" ? null : (
        <FormField label="Pieces" htmlFor="field-opening-quantity" required error={errors.quantity}>
          <NumberInput {...field("quantity")} min={1} max={value.kind === "box" ? MAX_PURCHASE_PIECES : 100_000} value={value.quantity} onChange={(event) => set({ quantity: event.target.value })} placeholder="10" />
        </FormField>
      )}
      {value.kind === "correction" ? (
        <FormField label="Reason" htmlFor="field-opening-comment" required error={errors.comment} hint="Kept on the correction in the stock ledger">
          <AdminInput {...field("comment")} value={value.comment} onChange={(event) => set({ comment: event.target.value })} maxLength={500} />
        </FormField>
      ) : null}
      {value.kind === "box" ? (
        <>
          <FormField label="Open box" htmlFor="field-opening-boxId" required error={errors.boxId} hint={boxes.data?.length === 0 ? "No box is open: open one on the Boxes page" : undefined}>
            <AdminSelect {...field("boxId")} value={value.boxId} onChange={(event) => set({ boxId: event.target.value })}>
              <option value="">Choose a box</option>
              {boxes.data?.map((box) => (
                <option key={box.id} value={box.id}>
                  Box {box.id} · {plural(box.pieces, "piece")}
                </option>
              ))}
            </AdminSelect>
          </FormField>
          <FormField label="Cost per piece" htmlFor="field-opening-unitCost" required error={errors.unitCost}>
            <div className="flex gap-2">
              <AdminInput {...field("unitCost")} inputMode="decimal" value={value.unitCost} onChange={(event) => set({ unitCost: event.target.value })} placeholder="2.50" className="min-w-0 flex-1" />
              <AdminSelect aria-label="Currency" value={value.currency} onChange={(event) => set({ currency: event.target.value as PurchaseCurrency })} className="w-20">
                {purchaseCurrencies.map((currency) => (
                  <option key={currency}>{currency}</option>
                ))}
              </AdminSelect>
            </div>
          </FormField>
        </>
      ) : null}
    </FormSection>
  );
}
