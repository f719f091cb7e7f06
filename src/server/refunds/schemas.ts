import { z } from "zod";
import { euroText } from "@/lib/amount-text";
import { refundReasons, type OrderStatus, type PaymentProvider, type RefundReason, type RefundStatus, type RefundType, type Shop } from "@/lib/enums";
import { rowId } from "@/lib/id";
import { refundKinds, type RefundKind } from "@/lib/refund-kind";
import { text } from "@/lib/text";
import type { OrderLine } from "@/server/orders/order-line";

/**
 * Refunds (`admin.refunds.*`): what staff may still give back on an order, and giving it. One refund is one payout:
 * some pieces of one line (PRODUCT), the shipping (SHIPPING), or a goodwill amount with no line (stored as a PRODUCT
 * refund without an order item, SPEC section 4 knowing only those two types).
 */

const orderNumber = text().trim().min(1).max(40);

export const refundProposalInput = z.object({ orderNumber });
export type RefundProposalInput = z.input<typeof refundProposalInput>;

/** `admin.refunds.create` answers the new refund's `RefundView`: REFUNDED, PENDING, or FAILED with the provider's words. */
export const createRefundInput = z
  .object({
    orderNumber,
    kind: z.enum(refundKinds),
    /** PRODUCT: the line whose pieces come back. */
    orderItemId: rowId.optional(),
    /** PRODUCT: how many of the line's pieces. */
    quantity: z.number().int().positive("must be at least one piece").max(10_000).optional(),
    /** PRODUCT: put the pieces back in stock (not for damaged pieces that cannot be sold again). */
    restock: z.boolean().default(false),
    /** What to pay back; proposed from what was paid, may be lowered, never above what is left to refund. */
    amount: euroText.refine((value) => value.greaterThan(0), "must be more than zero"),
    reason: z.enum(refundReasons),
    comment: text().trim().max(1000).optional(),
  })
  .superRefine((input, ctx) => {
    if (input.kind === "PRODUCT") {
      if (input.orderItemId === undefined) ctx.addIssue({ code: "custom", path: ["orderItemId"], message: "Choose the line that is refunded" });
      if (input.quantity === undefined) ctx.addIssue({ code: "custom", path: ["quantity"], message: "Say how many pieces are refunded" });
    } else if (input.restock) {
      ctx.addIssue({ code: "custom", path: ["restock"], message: "Only pieces of a line can go back in stock" });
    }
  });
export type CreateRefundInput = z.input<typeof createRefundInput>;
export type CreateRefund = z.output<typeof createRefundInput>;

/** `admin.refunds.retry` tries a FAILED refund again and answers its `RefundView`. */
export const retryRefundInput = z.object({ refundId: rowId });

/**
 * `admin.refunds.cancelOrder` cancels an order from its page and pays a paid order's money back with it; it answers
 * a `CancelledOrder`.
 */
export const cancelOrderInput = z.object({ orderNumber });
export type CancelOrderInput = z.input<typeof cancelOrderInput>;

/** A cancelled order and the refunds its cancellation gave, as each stands after the provider's answer. */
export type CancelledOrder = {
  orderNumber: string;
  refunds: RefundView[];
  /** Why nothing could be refunded here though the order was paid (sold on eBay but not imported); null otherwise. */
  refusal: string | null;
};

/** One refund as staff and the customer see it. Amounts are euro strings with two decimals. */
export type RefundView = {
  id: number;
  kind: RefundKind;
  type: RefundType;
  orderItemId: number | null;
  /** The line's product name for a PRODUCT refund; null for shipping and goodwill. */
  productName: string | null;
  quantity: number | null;
  amount: string;
  restocked: boolean;
  reason: RefundReason;
  comment: string | null;
  status: RefundStatus;
  /** The provider's refusal, while FAILED. */
  failureMessage: string | null;
  externalRefundId: string | null;
  /** False when the money went back outside a payment provider (bank transfer, on account). */
  monetary: boolean;
  createdAt: Date;
  settledAt: Date | null;
  staffName: string | null;
};

/** A line of the order with what is left to refund of it. */
export type RefundableLine = OrderLine & {
  /** Pieces refunded so far (PENDING and REFUNDED refunds; FAILED ones gave nothing back). */
  refundedQuantity: number;
  refundableQuantity: number;
  /** What the customer paid for the whole line, after every discount. */
  paid: string;
  leftToRefund: string;
  /** The proposed amount for 1, 2, … refundableQuantity pieces: index 0 is one piece. */
  proposedAmounts: string[];
};

/** What staff may still give back on an order, and the refunds so far. */
export type RefundProposal = {
  orderNumber: string;
  orderStatus: OrderStatus;
  shop: Shop;
  /** How the order was paid; null when it has no payment. */
  paymentProvider: PaymentProvider | null;
  /** True when the money goes back through a payment provider; false when staff pay it back by hand. */
  monetary: boolean;
  paidTotal: string;
  refundedTotal: string;
  leftToRefund: string;
  lines: RefundableLine[];
  shipping: { paid: string; refunded: string; leftToRefund: string };
  refunds: RefundView[];
  /** Why nothing can be refunded now (an unpaid order, an eBay order before the marketplace port); null when it can. */
  refusal: string | null;
  /**
   * What cancelling the order (`admin.refunds.cancelOrder`) would pay back now: every refund it would give and their
   * sum; none when nothing is left to refund or `refusal` says why not.
   */
  cancellation: { amount: string; refunds: { kind: RefundKind; productName: string | null; quantity: number | null; amount: string }[] };
};
