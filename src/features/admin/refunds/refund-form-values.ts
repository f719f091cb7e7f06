import { Decimal } from "decimal.js";
import type { FieldErrors, Resolver } from "react-hook-form";
import { euroText } from "@/lib/amount-text";
import type { OrderStatus, RefundReason } from "@/lib/enums";
import { formatEuro } from "@/lib/money";
import { createRefundInput, type CreateRefundInput, type RefundableLine, type RefundProposal } from "@/server/refunds/schemas";
import { filledThenSchema } from "../kit/forms/filled-resolver";
import { restockByReason } from "./refund-labels";

// The refund form's values and rules, apart from its React so that they are tested on their own.

/**
 * The refund form's values. `target` is what is refunded: `item-<orderItemId>` for pieces of a line, SHIPPING, or
 * GOODWILL for an amount with no line; `quantity` is NaN while the pieces field is empty (SPEC section 5).
 */
export type RefundFormValues = {
  target: string;
  quantity: number;
  restock: boolean;
  amount: string;
  reason: RefundReason | "";
  comment: string;
};

export const blank: RefundFormValues = { target: "", quantity: Number.NaN, restock: false, amount: "", reason: "", comment: "" };

const LINE = "item-";

/**
 * Damaged pieces cannot be sold again, and a cancelled order's pieces went back in stock when it was cancelled: the
 * box is then unticked and cannot be ticked.
 */
export const restockAllowed = (reason: RefundReason | "", orderStatus: OrderStatus) => reason !== "DAMAGED" && orderStatus !== "CANCELLED";

/** Whether the box starts ticked for a reason (`restockByReason`), where it may be ticked at all. */
export const restockFor = (reason: RefundReason | "", orderStatus: OrderStatus) => reason !== "" && restockByReason[reason] && restockAllowed(reason, orderStatus);
export const lineTarget = (line: RefundableLine) => `${LINE}${line.orderItemId}`;

export function lineOf(proposal: RefundProposal, target: string): RefundableLine | undefined {
  return target.startsWith(LINE) ? proposal.lines.find((line) => lineTarget(line) === target) : undefined;
}

/** The proposal for some pieces of a line: what was paid for them after discounts, or null for a count out of range. */
export function proposedFor(line: RefundableLine, quantity: number): string | null {
  return Number.isInteger(quantity) && quantity >= 1 && quantity <= line.refundableQuantity ? line.proposedAmounts[quantity - 1]! : null;
}

/**
 * The most this refund may give back, as the server counts it: what is left of the line or of the shipping, or for
 * goodwill of the order, and never more than the order has left. Null while nothing is chosen.
 */
export function refundLimit(proposal: RefundProposal, target: string): Decimal | null {
  const left = new Decimal(proposal.leftToRefund);
  if (target === "SHIPPING") return Decimal.min(left, proposal.shipping.leftToRefund);
  if (target === "GOODWILL") return left;
  const line = lineOf(proposal, target);
  return line ? Decimal.min(left, line.leftToRefund) : null;
}

export const atMost = (limit: Decimal) => (limit.isZero() ? "Nothing is left to refund here" : `At most ${formatEuro(limit)} can be refunded`);

/** The amount typed, when it reads as euros. */
export function amountOf(text: string): Decimal | null {
  const parsed = euroText.safeParse(text);
  return parsed.success ? parsed.data : null;
}

export const inputOf =
  ({ orderNumber, orderStatus }: RefundProposal) =>
  (values: RefundFormValues): CreateRefundInput => {
    const product = values.target.startsWith(LINE);
    return {
      orderNumber,
      kind: product ? "PRODUCT" : (values.target as "SHIPPING" | "GOODWILL"),
      orderItemId: product ? Number(values.target.slice(LINE.length)) : undefined,
      quantity: product ? values.quantity : undefined,
      restock: product && values.restock && restockAllowed(values.reason, orderStatus),
      amount: values.amount,
      reason: values.reason as RefundReason,
      comment: values.comment.trim() || undefined,
    };
  };

/** The schema speaks of the input's names; the form shows them at its own fields. */
const fieldOfInput: Record<string, keyof RefundFormValues> = { kind: "target", orderItemId: "target" };

/**
 * SPEC section 5's required fields first, then the server's own schema (`createRefundInput`, through zodResolver),
 * then the one rule the schema cannot know: no more than what is left to refund.
 */
export function refundResolver(proposal: RefundProposal): Resolver<RefundFormValues, unknown, CreateRefundInput> {
  const toInput = inputOf(proposal);
  return async (values, context, options) => {
    const required: (keyof RefundFormValues)[] = values.target.startsWith(LINE) ? ["target", "quantity", "reason", "amount"] : ["target", "reason", "amount"];
    const checked = await filledThenSchema(createRefundInput, required, toInput)(values, context, options);
    if (Object.keys(checked.errors).length) {
      const errors = Object.fromEntries(Object.entries(checked.errors).map(([field, error]) => [fieldOfInput[field] ?? field, error]));
      return { values: {}, errors: errors as FieldErrors<RefundFormValues> };
    }
    const limit = refundLimit(proposal, values.target);
    const amount = amountOf(values.amount);
    if (limit && amount?.greaterThan(limit)) return { values: {}, errors: { amount: { type: "max", message: atMost(limit) } } };
    return checked;
  };
}
