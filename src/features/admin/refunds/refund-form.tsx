"use client";

import { Decimal } from "decimal.js";
import { Info, Loader2, Undo2 } from "lucide-react";
import { useMemo } from "react";
import { useForm, useWatch, type FieldErrors } from "react-hook-form";
import { toast } from "@/components/toast";
import { AdminSelect, AdminTextarea } from "@/components/ui/admin-form-controls";
import { Button } from "@/components/ui/button";
import { refundReasons } from "@/lib/enums";
import { paymentMethodLabels } from "@/lib/labels";
import { formatEuro } from "@/lib/money";
import { cn } from "@/lib/utils";
import type { CreateRefundInput, RefundProposal } from "@/server/refunds/schemas";
import { formatPieces } from "../kit/format";
import { FormField } from "../kit/forms/form-field";
import { RefusalNote } from "../kit/forms/form-layout";
import { MISSING_FIELDS_TOAST } from "../kit/forms/is-filled";
import { refundOf, useCreateRefund } from "./queries";
import {
  amountOf,
  atMost,
  blank,
  lineOf,
  lineTarget,
  proposedFor,
  refundLimit,
  refundResolver,
  restockAllowed,
  restockFor,
  type RefundFormValues,
} from "./refund-form-values";
import { refundReasonLabels, restockHints } from "./refund-labels";
import { NumberInput } from "../kit/forms/number-input";
import { positiveEuroRange } from "@/lib/amount-text";

/**
 * One refund of an order: pieces of a line, the shipping, or a goodwill amount. Choosing fills in the proposal (what
 * was paid for those pieces after discounts, or the shipping left), which staff may lower but not raise; the reason
 * proposes whether the pieces go back in stock. `onDone` closes the dialog once the refund is made or recorded.
 */
export function RefundForm({ proposal, onDone }: { proposal: RefundProposal; onDone: () => void }) {
  const create = useCreateRefund();
  const resolver = useMemo(() => refundResolver(proposal), [proposal]);
  const form = useForm<RefundFormValues, unknown, CreateRefundInput>({ defaultValues: blank, resolver });
  const { register, setValue, getValues } = form;
  const values = useWatch({ control: form.control }) as RefundFormValues;
  const errors = form.formState.errors;
  // The proposal is the amount's default, so an amount staff typed themselves is dirty and the pieces leave it alone
  // (read here so that the form tracks dirty fields).
  void form.formState.dirtyFields;
  const propose = (amount: string | null) => form.resetField("amount", { defaultValue: amount ?? "" });

  const line = lineOf(proposal, values.target);
  const shippingLeft = new Decimal(proposal.shipping.leftToRefund);
  const limit = refundLimit(proposal, values.target);
  const amount = amountOf(values.amount);
  const overLimit = limit && amount?.greaterThan(limit) ? atMost(limit) : undefined;
  const cancelled = proposal.orderStatus === "CANCELLED";
  const noRestock = !restockAllowed(values.reason, proposal.orderStatus);

  const chooseTarget = () => {
    const chosen = getValues("target");
    const chosenLine = lineOf(proposal, chosen);
    setValue("quantity", chosenLine ? 1 : Number.NaN);
    setValue("restock", chosenLine ? restockFor(getValues("reason"), proposal.orderStatus) : false);
    propose(chosenLine ? proposedFor(chosenLine, 1) : chosen === "SHIPPING" ? proposal.shipping.leftToRefund : null);
  };
  const changePieces = () => {
    const quantity = getValues("quantity");
    if (!line || Number.isNaN(quantity)) return;
    // SPEC section 5: number inputs clamp to their min and max.
    const clamped = Math.min(Math.max(Math.trunc(quantity), 1), line.refundableQuantity);
    if (clamped !== quantity) setValue("quantity", clamped);
    if (!form.getFieldState("amount").isDirty) propose(proposedFor(line, clamped));
  };
  const chooseReason = () => {
    if (line) setValue("restock", restockFor(getValues("reason"), proposal.orderStatus));
  };

  const submit = async (input: CreateRefundInput) => {
    const refund = refundOf(await create.mutateAsync(input));
    const given = formatEuro(refund?.amount ?? input.amount.replace(",", "."));
    if (refund?.status === "FAILED") {
      toast.error(`The refund of ${given} failed`, { description: `${refund.failureMessage ?? "The payment provider refused it."} It is listed under Refunds: retry it there.` });
    } else if (!proposal.monetary) {
      toast.success(`Refund of ${given} recorded`, { description: "Pay it back to the customer by bank transfer or on their account." });
    } else if (refund?.status === "PENDING") {
      toast.success(`Refunding ${given}`, { description: "The payment provider has it; it shows as Refunded once they confirm." });
    } else {
      toast.success(`${given} refunded`);
    }
    onDone();
  };
  const refuse = (refused: FieldErrors<RefundFormValues>) => {
    if (Object.values(refused).some((error) => error?.type === "required")) toast.error(MISSING_FIELDS_TOAST.title, { description: MISSING_FIELDS_TOAST.description });
  };

  const note = (id: string, error: string | undefined) => ({ "aria-invalid": error ? true : undefined, "aria-describedby": `${id}-note` });
  const errorOf = (field: keyof RefundFormValues) => {
    const error = errors[field];
    if (!error) return undefined;
    // The schema's messages are phrases ("must be more than zero"); under a field they read as sentences.
    return error.type === "required" ? "Required" : error.message ? error.message.charAt(0).toUpperCase() + error.message.slice(1) : "Not valid";
  };
  const amountError = overLimit ?? errorOf("amount");

  return (
    <form noValidate onSubmit={form.handleSubmit((input) => submit(input).catch(() => undefined), refuse)} className="space-y-4">
      {proposal.monetary ? (
        proposal.paymentProvider ? (
          <p className="flex items-start gap-2 text-xs text-muted-foreground">
            <Info className="mt-px size-3.5 shrink-0" aria-hidden="true" />
            The money goes back through {paymentMethodLabels[proposal.paymentProvider]}, the way the customer paid.
          </p>
        ) : null
      ) : (
        <p className="flex items-start gap-2 rounded-md border border-amber-500/30 bg-amber-500/10 px-3 py-2 text-xs text-amber-900 dark:text-amber-200">
          <Info className="mt-px size-3.5 shrink-0" aria-hidden="true" />
          Paid back outside the shop (bank transfer / on account): this records the refund.
        </p>
      )}

      <FormField htmlFor="refund-target" label="What is refunded" required error={errorOf("target")}>
        <AdminSelect id="refund-target" {...note("refund-target", errorOf("target"))} {...register("target", { onChange: chooseTarget })}>
          <option value="">Choose what to refund</option>
          <optgroup label="Pieces of a line">
            {proposal.lines.map((candidate) => (
              <option key={candidate.orderItemId} value={lineTarget(candidate)} disabled={candidate.refundableQuantity === 0}>
                {candidate.refundableQuantity === 0 ? `${candidate.name} — fully refunded` : candidate.name}
              </option>
            ))}
          </optgroup>
          <optgroup label="No line">
            <option value="SHIPPING" disabled={!shippingLeft.greaterThan(0)}>
              {shippingLeft.greaterThan(0) ? "Shipping" : new Decimal(proposal.shipping.paid).isZero() ? "Shipping — none was paid" : "Shipping — fully refunded"}
            </option>
            <option value="GOODWILL">Goodwill amount</option>
          </optgroup>
        </AdminSelect>
      </FormField>

      <div className="grid gap-3 sm:grid-cols-2">
        {line ? (
          <FormField
            htmlFor="refund-quantity"
            label="Pieces"
            required
            error={errorOf("quantity")}
            hint={`of ${formatPieces(line.refundableQuantity)} left${line.refundedQuantity ? ` (${line.refundedQuantity} of ${line.quantity} refunded before)` : ""}`}
          >
            <NumberInput
              id="refund-quantity"
              type="number"
              {...register("quantity", { valueAsNumber: true, onChange: changePieces })}
              min={1}
              max={line.refundableQuantity}
              {...note("refund-quantity", errorOf("quantity"))}
            />
          </FormField>
        ) : null}
        <FormField
          htmlFor="refund-amount"
          label="Amount"
          required
          error={amountError}
          className={line ? undefined : "sm:col-span-2"}
          hint={
            line && proposedFor(line, values.quantity)
              ? `Paid for ${formatPieces(values.quantity)} after discounts: ${formatEuro(proposedFor(line, values.quantity)!)}. You may lower it.`
              : values.target === "SHIPPING"
                ? `Shipping paid ${formatEuro(proposal.shipping.paid)}, ${formatEuro(proposal.shipping.leftToRefund)} of it left. You may lower it.`
                : values.target === "GOODWILL"
                  ? `Up to ${formatEuro(proposal.leftToRefund)}, what is left of the order.`
                  : undefined
          }
        >
          <div className="relative">
            <span className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-sm text-muted-foreground" aria-hidden="true">
              €
            </span>
            <NumberInput
              id="refund-amount"
              {...register("amount")}
              {...positiveEuroRange}
              placeholder="0.00"
              className="pl-7 tabular-nums"
              {...note("refund-amount", amountError)}
            />
          </div>
        </FormField>
      </div>

      <FormField htmlFor="refund-reason" label="Reason" required error={errorOf("reason")}>
        <AdminSelect id="refund-reason" {...note("refund-reason", errorOf("reason"))} {...register("reason", { onChange: chooseReason })}>
          <option value="">Choose a reason</option>
          {refundReasons.map((reason) => (
            <option key={reason} value={reason}>
              {refundReasonLabels[reason]}
            </option>
          ))}
        </AdminSelect>
      </FormField>

      {line ? (
        <div className="flex items-start gap-2">
          <input
            id="refund-restock"
            type="checkbox"
            disabled={noRestock}
            aria-describedby="refund-restock-note"
            className="mt-0.5 size-4 accent-[var(--primary)] disabled:cursor-not-allowed"
            {...register("restock")}
          />
          <div className="text-sm">
            <label htmlFor="refund-restock" className={cn("font-medium", noRestock && "text-muted-foreground")}>
              Put back in stock
            </label>
            <p id="refund-restock-note" className="text-[11px] text-muted-foreground">
              {cancelled ? "The order was cancelled and its pieces went back in stock then." : restockHints[values.reason]}
            </p>
          </div>
        </div>
      ) : null}

      <FormField htmlFor="refund-comment" label="Comment" error={errorOf("comment")}>
        <AdminTextarea id="refund-comment" rows={2} className="min-h-16" placeholder="What happened, in a line (staff only)" {...note("refund-comment", errorOf("comment"))} {...register("comment")} />
      </FormField>

      <RefusalNote message={create.error?.message} />

      <div className="flex items-center justify-between gap-3 border-t pt-4">
        <p className="text-xs text-muted-foreground">{formatEuro(proposal.leftToRefund)} left to refund on this order</p>
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? <Loader2 className="animate-spin" /> : <Undo2 />}
          {amount && !overLimit ? `Refund ${formatEuro(amount)}` : "Refund"}
        </Button>
      </div>
    </form>
  );
}
