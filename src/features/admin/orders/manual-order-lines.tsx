"use client";

import { Trash2 } from "lucide-react";
import type { FieldErrors, UseFormRegister } from "react-hook-form";
import { AdminInput } from "@/components/ui/admin-form-controls";
import { AdminBadge } from "@/components/ui/admin-badge";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";
import type { ManualOrderQuoteLine } from "@/server/orders/manual-order-schemas";
import { formatEuro } from "@/lib/money";
import { NumberInput } from "../kit/forms/number-input";
import { euroRange } from "@/lib/amount-text";

/** A line as the form holds it: the override and its reason as typed. */
export type ManualOrderFormLine = {
  productId: number;
  name: string;
  quantity: number;
  priceOverride: string;
  priceOverrideReason: string;
  /** The reason the line was sold at another price, for a line already in an order. */
  soldReason: string | null;
};

type LineForm = { lines: ManualOrderFormLine[] };

const pricingLabels: Record<ManualOrderQuoteLine["pricing"], string> = { SHOP: "shop price", AS_SOLD: "as sold", OVERRIDE: "override" };

/**
 * The order's lines: quantity, an optional override of what the whole line costs with its reason, and what the
 * server priced the line at (from the live preview).
 */
export function OrderLines({
  lines,
  register,
  errors,
  quoted,
  onRemove,
}: {
  lines: (ManualOrderFormLine & { key: string })[];
  register: UseFormRegister<LineForm>;
  errors: FieldErrors<LineForm>["lines"];
  quoted: ReadonlyMap<number, ManualOrderQuoteLine>;
  onRemove: (index: number) => void;
}) {
  if (lines.length === 0) return <p className="rounded-md border border-dashed px-3 py-6 text-center text-sm text-muted-foreground">No products yet: search above to add one.</p>;
  return (
    <ul className="divide-y rounded-md border" aria-label="Order lines">
      {lines.map((line, index) => {
        const quote = quoted.get(line.productId);
        const lineErrors = Array.isArray(errors) ? errors[index] : undefined;
        const reasonError = lineErrors?.priceOverrideReason?.message;
        const overrideError = lineErrors?.priceOverride?.message;
        const short = quote && line.quantity > quote.available;
        return (
          <li key={line.key} className="space-y-2 px-3 py-3" data-testid="order-line">
            <div className="flex items-start gap-2">
              <div className="min-w-0 flex-1">
                <p className="text-sm font-medium">{line.name}</p>
                <p className="text-xs text-muted-foreground">
                  #{line.productId}
                  {quote ? (
                    <>
                      {" "}· list {formatEuro(quote.listPrice)} each · <span className="font-medium text-foreground">{formatEuro(quote.totalPrice)}</span> ({pricingLabels[quote.pricing]})
                    </>
                  ) : null}
                </p>
                {short ? <p className="text-xs text-destructive">Only {quote.available} available</p> : null}
                {line.soldReason ? <p className="text-xs text-muted-foreground">Sold at an override: {line.soldReason}</p> : null}
              </div>
              <Button type="button" variant="ghost" size="icon" className="size-9 shrink-0" onClick={() => onRemove(index)} aria-label={`Remove ${line.name}`}>
                <Trash2 />
              </Button>
            </div>
            <div className="grid grid-cols-[5rem_minmax(0,1fr)] gap-2 sm:grid-cols-[5rem_9rem_minmax(0,1fr)]">
              <label className="space-y-1 text-[11px] text-muted-foreground">
                <span>Quantity</span>
                <NumberInput type="number" {...register(`lines.${index}.quantity`, { valueAsNumber: true })} min={1} max={999} aria-label={`Quantity of ${line.name}`} aria-invalid={short || undefined} />
              </label>
              <label className="space-y-1 text-[11px] text-muted-foreground">
                <span>Line price (€)</span>
                <NumberInput {...register(`lines.${index}.priceOverride`)} {...euroRange} placeholder="as priced" aria-label={`Price override for the whole line of ${line.name}`} aria-invalid={Boolean(overrideError) || undefined} />
              </label>
              {line.priceOverride.trim() ? (
                <label className="col-span-2 space-y-1 text-[11px] text-muted-foreground sm:col-span-1">
                  <span>
                    Reason for the price<span className="ml-0.5 text-destructive">*</span>
                  </span>
                  <AdminInput
                    placeholder="e.g. scratched case, regular customer"
                    aria-required
                    aria-invalid={Boolean(reasonError) || undefined}
                    className={cn(reasonError && "border-destructive")}
                    {...register(`lines.${index}.priceOverrideReason`)}
                  />
                </label>
              ) : null}
            </div>
            {reasonError ? <p className="text-[11px] text-destructive">{reasonError}</p> : null}
            {overrideError ? <p className="text-[11px] text-destructive">Line price {overrideError}</p> : null}
            {quote?.pricing === "OVERRIDE" && quote.totalDiscountAmount.isPositive() ? (
              <AdminBadge tone="brass">{formatEuro(quote.totalDiscountAmount)} off the list price</AdminBadge>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
