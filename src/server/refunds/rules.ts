import { Decimal } from "decimal.js";
import { moneyBackRefundStatuses, type OrderStatus, type PaymentProvider, type RefundStatus, type RefundType, type Shop } from "@/lib/enums";
import { formatEuro } from "@/lib/money";
import { isOnlinePaymentMethod } from "@/lib/payment-methods";
import type { RefundKind } from "@/lib/refund-kind";
import type { AppErrorCode } from "@/server/errors";
import type { OrderTotals } from "@/server/orders/schemas";

/*
 * What may still be refunded of an order, and what to propose; pure, over Decimals. The reads and the writes are in
 * service.ts, which checks every refund against these rules under the order's lock.
 *
 * - What was paid for each line and the shipping is read from the order's named totals (`orderTotals`, the one totals
 *   function): a line's `totalPrice` is what the customer paid for it after every discount, the coupon's share
 *   included, so a refund never gives back money a promotion had already taken off. The shipping paid is the method's
 *   cost plus the insurance surcharge.
 * - What was paid for the order is the payment's amount (`paymentDetail.total`), which an edit of a paid order leaves
 *   as it was: edits change the order's totals, never the refund ceiling (SECURITY-REVIEW N-L9). An edit that took
 *   something off leaves the difference to refund; for an order never edited the two are the same.
 * - PENDING and REFUNDED refunds count (their money went back or is on its way); a FAILED one gave nothing back and
 *   leaves its pieces and its amount refundable.
 * - Left to refund: of a line, its `totalPrice` less its refunds; of the shipping, the shipping paid less the
 *   SHIPPING refunds; of the order, its total less every refund, goodwill included. A refund may not be more than
 *   what is left of its line (or the shipping) nor of the order.
 * - A line's pieces are refunded once each: the pieces of all its refunds together are at most its quantity.
 * - Proposed for q pieces: the line's `totalPrice` × q / quantity, rounded half up to cents; refunding the last
 *   pieces of a line proposes exactly what is left of it, so that the pieces' proposals add up to the line to the
 *   cent. Never more than is left of the order.
 */

const ZERO = new Decimal(0);

/** A refund whose money went back, or is on its way: PENDING or REFUNDED. */
export function givesMoneyBack(status: RefundStatus): boolean {
  return (moneyBackRefundStatuses as readonly RefundStatus[]).includes(status);
}

export type RefundOrderLine = {
  orderItemId: number;
  name: string;
  quantity: number;
  totalPrice: Decimal;
  /** Pieces of a marketplace line sold twice: never taken from stock, so never put back. */
  oversoldQuantity?: number;
};

export type RefundRecord = { type: RefundType; orderItemId: number | null; quantity: number | null; amount: Decimal; status: RefundStatus };

export type LineLedger = {
  line: RefundOrderLine;
  refundedAmount: Decimal;
  refundedQuantity: number;
  leftAmount: Decimal;
  leftQuantity: number;
};

/** What was paid, refunded and is left of an order, its shipping and each line. */
export type RefundLedger = {
  paid: Decimal;
  refunded: Decimal;
  left: Decimal;
  shipping: { paid: Decimal; refunded: Decimal; left: Decimal };
  lines: LineLedger[];
};

const notBelowZero = (value: Decimal) => Decimal.max(value, ZERO);
const sum = (amounts: readonly Decimal[]) => amounts.reduce((total, amount) => total.plus(amount), ZERO);

/**
 * The ledger of an order: its lines and `totals` as they stand, `paid` what the customer paid for it (the payment's
 * amount, which edits leave alone; the order's total when not told), and its refunds.
 */
export function refundLedger(lines: readonly RefundOrderLine[], totals: OrderTotals, refunds: readonly RefundRecord[], paid: Decimal = totals.total): RefundLedger {
  const counted = refunds.filter((refund) => givesMoneyBack(refund.status));
  const refunded = sum(counted.map((refund) => refund.amount));
  const shippingPaid = totals.shipping.plus(totals.surcharge);
  const shippingRefunded = sum(counted.filter((refund) => refund.type === "SHIPPING").map((refund) => refund.amount));
  return {
    paid,
    refunded,
    left: notBelowZero(paid.minus(refunded)),
    shipping: { paid: shippingPaid, refunded: shippingRefunded, left: notBelowZero(shippingPaid.minus(shippingRefunded)) },
    lines: lines.map((line) => {
      const own = counted.filter((refund) => refund.type === "PRODUCT" && refund.orderItemId === line.orderItemId);
      const refundedAmount = sum(own.map((refund) => refund.amount));
      const refundedQuantity = own.reduce((pieces, refund) => pieces + (refund.quantity ?? 0), 0);
      return {
        line,
        refundedAmount,
        refundedQuantity,
        leftAmount: notBelowZero(line.totalPrice.minus(refundedAmount)),
        leftQuantity: Math.max(line.quantity - refundedQuantity, 0),
      };
    }),
  };
}

/** The amount proposed for `quantity` of a line's pieces still to refund (see the rules above). */
export function proposedLineAmount(ledger: RefundLedger, entry: LineLedger, quantity: number): Decimal {
  const share =
    quantity >= entry.leftQuantity
      ? entry.leftAmount
      : Decimal.min(entry.line.totalPrice.times(quantity).dividedBy(entry.line.quantity).toDecimalPlaces(2, Decimal.ROUND_HALF_UP), entry.leftAmount);
  return Decimal.min(share, ledger.left);
}

/** The proposals for 1, 2, … of the line's pieces still to refund. */
export function proposedLineAmounts(ledger: RefundLedger, entry: LineLedger): Decimal[] {
  return Array.from({ length: entry.leftQuantity }, (_, index) => proposedLineAmount(ledger, entry, index + 1));
}

/** How the money of an order goes back. */
export type RefundChannel =
  /** Through the payment provider that took it (Mollie, PayPal, the sandbox). */
  | "provider"
  /** By staff, outside the shop: a bank transfer or an order on account, with no payment at a provider. */
  | "manual"
  /** Through the marketplace the order was sold on. */
  | "marketplace";

export function refundChannel(shop: Shop, payment: { provider: PaymentProvider; externalPaymentId: string | null }): RefundChannel {
  if (shop === "EBAY" || payment.provider === "EBAY") return "marketplace";
  return payment.externalPaymentId !== null && isOnlinePaymentMethod(payment.provider) ? "provider" : "manual";
}

/** Why nothing can be refunded of an order now, or null when its refunds can be given. */
export function orderRefusal(order: {
  orderNumber: string;
  status: OrderStatus;
  soldAt: Date | null;
  channel: RefundChannel;
  /** The marketplace's id of an order imported from it; eBay is told of a refund by that id. */
  marketplaceOrderId: string | null;
}): string | null {
  if (order.status === "PENDING") return `Order ${order.orderNumber} is not paid yet: there is nothing to refund.`;
  if (order.status === "CANCELLED" && order.soldAt === null) return `Order ${order.orderNumber} was cancelled before it was paid: there is nothing to refund.`;
  if (order.channel === "marketplace" && order.marketplaceOrderId === null) {
    return `Order ${order.orderNumber} was sold on eBay but not imported from it, so eBay would not know it: refund it in eBay's Seller Hub.`;
  }
  return null;
}

export type RefundRequest = { kind: RefundKind; orderItemId?: number; quantity?: number; amount: Decimal; restock: boolean };

export type RefundRefusal = { code: AppErrorCode; message: string };

/**
 * Why this refund cannot be given on top of the order's refunds in `ledger`, or null when it can. An amount above
 * what is left is refused with the most that can still be refunded.
 */
export function refundRefusal(ledger: RefundLedger, request: RefundRequest, order: { orderNumber: string; status: OrderStatus }): RefundRefusal | null {
  const tooMuch = (what: string, left: Decimal): RefundRefusal | null => {
    const cap = Decimal.min(left, ledger.left);
    if (cap.isZero()) return { code: "CONFLICT", message: `Nothing is left to refund of ${what}.` };
    if (request.amount.greaterThan(cap)) {
      const of = cap.lessThan(left) ? `order ${order.orderNumber}` : what;
      return { code: "CONFLICT", message: `${formatEuro(request.amount)} is more than is left to refund of ${of}: at most ${formatEuro(cap)}.` };
    }
    return null;
  };

  if (request.kind === "SHIPPING") return tooMuch(`the shipping of order ${order.orderNumber}`, ledger.shipping.left);
  if (request.kind === "GOODWILL") return tooMuch(`order ${order.orderNumber}`, ledger.left);

  const entry = ledger.lines.find((candidate) => candidate.line.orderItemId === request.orderItemId);
  if (!entry) return { code: "NOT_FOUND", message: `Order ${order.orderNumber} has no line ${request.orderItemId}.` };
  const { line } = entry;
  const pieces = `${line.quantity} × ${line.name}`;
  const quantity = request.quantity ?? 0;
  if (entry.leftQuantity === 0) return { code: "CONFLICT", message: `All of the ${pieces} are refunded already.` };
  if (quantity > entry.leftQuantity) {
    return { code: "CONFLICT", message: `Only ${entry.leftQuantity} of the ${pieces} ${entry.leftQuantity === 1 ? "is" : "are"} left to refund.` };
  }
  if (request.restock && order.status === "CANCELLED") {
    return { code: "CONFLICT", message: `Order ${order.orderNumber} was cancelled and its pieces went back in stock then: refund them without putting them back in stock.` };
  }
  if (request.restock && quantity > restockablePieces(entry)) {
    return { code: "CONFLICT", message: `${soldTwice(entry)} of the ${pieces} came in after the web shop had sold them and never left the stock: refund them without putting them back in stock.` };
  }
  return tooMuch(`the ${pieces}`, entry.leftAmount);
}

/** Pieces of a line that left the stock and are not refunded yet; refunds are taken to be of the pieces sold twice first. */
function restockablePieces(entry: LineLedger): number {
  const oversold = entry.line.oversoldQuantity ?? 0;
  return Math.max(entry.line.quantity - Math.max(entry.refundedQuantity, oversold), 0);
}

const soldTwice = (entry: LineLedger) => Math.max((entry.line.oversoldQuantity ?? 0) - entry.refundedQuantity, 0);

/**
 * The idempotency key of a refund's next attempt at the provider: `refund-<id>-1` for the first, `-2` for the first
 * retry and so on. A repeat of one attempt (a timeout, the safety-net job) reuses its key, so the provider pays it
 * once; a retry after a refusal needs a new key, since providers answer a reused key with the cached refusal.
 */
export function attemptKey(refundId: number, previousKey?: string): string {
  const match = previousKey ? /^refund-\d+-(\d+)$/.exec(previousKey) : null;
  const attempt = previousKey === undefined ? 1 : match ? Number(match[1]) + 1 : 2;
  return `refund-${refundId}-${attempt}`;
}

/** One of the refunds cancelling a paid order gives: what `RefundRequest` asks, never back in stock. */
export type CancellationRefund = { kind: RefundKind; orderItemId?: number; quantity?: number; amount: Decimal };

/**
 * What cancelling a paid order pays back: everything left to refund, as the refunds staff would give by hand, so
 * that the order's refunds still say what went back for which line. The pieces left of each line (for what is left
 * of it), the shipping left, and what is left of the order beyond those (an edit that took something off, or a line
 * whose pieces were refunded for less than they cost) as one amount without a line. Each is capped by what is left
 * of the order, so together they come to exactly `ledger.left`. None puts pieces back in stock: the cancellation
 * itself returns every piece not refunded yet.
 */
export function cancellationRefunds(ledger: RefundLedger): CancellationRefund[] {
  const refunds: CancellationRefund[] = [];
  let left = ledger.left;
  const take = (amount: Decimal, refund: Omit<CancellationRefund, "amount">) => {
    const share = Decimal.min(amount, left);
    if (share.isZero()) return;
    refunds.push({ ...refund, amount: share });
    left = left.minus(share);
  };
  for (const entry of ledger.lines) {
    if (entry.leftQuantity > 0) take(entry.leftAmount, { kind: "PRODUCT", orderItemId: entry.line.orderItemId, quantity: entry.leftQuantity });
  }
  take(ledger.shipping.left, { kind: "SHIPPING" });
  take(left, { kind: "GOODWILL" });
  return refunds;
}

/** An order not shipped yet whose refunds have given back all it cost is cancelled (`service.ts`). */
export const cancelledWhenRefundedInFull = ["PAID_READY_TO_SHIP", "PAID_FUTURE_SHIPMENT", "PROCESSED"] as const satisfies readonly OrderStatus[];

export function isRefundedInFull(ledger: RefundLedger): boolean {
  return ledger.paid.greaterThan(0) && ledger.left.isZero();
}

/** What a refund gave back, as staff and the logbook read it: "2 × Seiko 5 crown", "the shipping", "a goodwill amount". */
export function refundSubject(refund: { kind: RefundKind; quantity: number | null; productName: string | null }): string {
  if (refund.kind === "SHIPPING") return "the shipping";
  if (refund.kind === "GOODWILL") return "a goodwill amount";
  return `${refund.quantity ?? 1} × ${refund.productName ?? "a product"}`;
}

/**
 * How often a refund the provider accepted but has not paid out is asked about. Mollie pays refunds out with its next
 * settlement and holds them as `queued` while the balance is short, which can take days: the checks start ten
 * minutes after the provider accepted it and double their distance up to twelve hours, about three weeks in all.
 */
export const FOLLOW_UP_CHECKS = 48;

/** How long after the previous one check number `check` (1, 2, …) is made. */
export function followUpDelayMs(check: number): number {
  const minute = 60_000;
  return Math.min(10 * minute * 2 ** Math.max(check - 1, 0), 12 * 60 * minute);
}
