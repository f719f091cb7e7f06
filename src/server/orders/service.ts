import "server-only";
import { and, asc, eq, inArray, isNull, lt, ne, notExists, or } from "drizzle-orm";
import type { OrderStatus } from "@/lib/enums";
import { errorMessage } from "@/lib/error-message";
import { formatEuro } from "@/lib/money";
import type { Db } from "@/server/db/client";
import { lockExistingRow, lockRow } from "@/server/db/lock-row";
import { order, orderDetail, orderItem, paymentDetail, webhookEvent } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { couponsBeyondLimit } from "@/server/discounts/service";
import { foundOrNull } from "@/server/http/found-or-null";
import { isOnlinePaymentMethod } from "@/lib/payment-methods";
import { gatewayForMethod, type PaymentGateway, type PaymentsPort } from "@/server/integrations/payments/port";
import { logChange, logOrderChange } from "@/server/logbook/service";
import { notifyStaff } from "@/server/notifications/service";
import { isFutureShipmentNow } from "@/server/shipping/service";
import { bookStockInProductOrder } from "@/server/stock/service";
import type { OnPaymentUpdate, PaymentFollowUp, PaymentUpdate, WebhookOutcome } from "@/server/webhooks/schemas";
import { actOnProviderPayment } from "@/server/webhooks/service";
import { orderMachine, paidOrderStatuses } from "./order-machine";
import { lockOrderWithDetail, refundedPiecesByLine } from "./order-rows";
import { recordSalesShare } from "./sales-rollup";
import { holdEndsAt, type UnpaidHolds } from "./unpaid-holds";

/**
 * Orders after they are placed: moving them through the state machine, acting on settled payments, giving back the
 * stock of orders that will not be paid. Every change is logged in the caller's transaction.
 */

type Actor = { userId: string | null; description: string; now?: Date };

/**
 * Moves an order to another status, refusing (CONFLICT) what the state machine does not allow. The order row is
 * locked first, so a webhook and the expiry sweep cannot both act on one order. Paying sets `soldAt`; cancelling
 * returns the order's stock to the shelves through the ledger. The sales rollups follow (paid, cancelled).
 */
export async function transitionOrder(tx: Db, orderId: number, to: OrderStatus, actor: Actor): Promise<void> {
  const current = await lockExistingRow(tx, order, orderId, { status: order.status, orderNumber: order.orderNumber, soldAt: order.soldAt }, "Order");
  orderMachine.assert(current.orderNumber, current.status, to);
  const paying = current.status === "PENDING" && (to === "PAID_READY_TO_SHIP" || to === "PAID_FUTURE_SHIPMENT");
  const soldAt = paying ? (actor.now ?? new Date()) : current.soldAt;
  await tx.update(order).set({ status: to, soldAt }).where(eq(order.id, orderId));
  await logOrderChange(tx, orderId, {
    userId: actor.userId,
    previousState: { status: current.status, soldAt: current.soldAt },
    newState: { status: to, soldAt },
    description: `Order ${current.orderNumber}: ${current.status} → ${to}. ${actor.description}`,
  });
  if (to === "CANCELLED") await returnOrderStock(tx, orderId, current.orderNumber, actor.userId);
  await recordSalesShare(tx, orderId);
}

/**
 * Books the items of a cancelled order back into stock, one ORDER_ITEM ledger row per item, less the pieces its
 * refunds gave back (those went back in stock with their refund or, damaged, are not for sale again) and less the
 * pieces of a marketplace order that were sold twice, which never left the stock. Refunds are taken to have been of
 * those pieces first.
 */
async function returnOrderStock(tx: Db, orderId: number, orderNumber: string, userId: string | null): Promise<void> {
  const items = await tx
    .select({ orderItemId: orderItem.id, productId: orderItem.productId, quantity: orderItem.quantity, oversold: orderItem.oversoldQuantity })
    .from(orderItem)
    .where(eq(orderItem.orderId, orderId))
    .orderBy(asc(orderItem.id));
  const refunded = await refundedPiecesByLine(tx, orderId);
  await bookStockInProductOrder(
    tx,
    items
      .map(({ orderItemId, productId, quantity, oversold }) => ({ orderItemId, productId, quantity: quantity - Math.max(refunded.get(orderItemId) ?? 0, oversold) }))
      .filter((item) => item.quantity > 0)
      .map((item) => ({ ...item, type: "ORDER_ITEM", userId, description: `Order ${orderNumber} was cancelled: ${item.quantity} back in stock` })),
  );
}

/**
 * What a settled payment does to its order (the webhook's `onPaymentUpdate`): paid makes a PENDING order
 * PAID_READY_TO_SHIP, or PAID_FUTURE_SHIPMENT when its shipping date lies after the next shipping day; failed,
 * cancelled or expired cancel it and return its stock. Authorized is not paid yet: for a PENDING order it answers
 * "capture", and the order waits for the provider to report the capture paid. The order is found by the payment id
 * we stored, never by what the provider's metadata claims, and locked before anything is decided. Anything that does
 * not fit (money for an order already cancelled, an amount that differs from the order's total) changes no order,
 * takes no money that was only authorized, and is put before staff; the sweep leaves such an order to them. `note`
 * is added to the logbook's description of a change.
 */
export async function applyPaymentUpdate(tx: Db, update: PaymentUpdate, now: Date = new Date(), note?: string): Promise<PaymentFollowUp | void> {
  const [payment] = await tx
    .select({ orderId: paymentDetail.orderId, total: paymentDetail.total })
    .from(paymentDetail)
    .where(eq(paymentDetail.externalPaymentId, update.externalPaymentId));
  const describe = `${update.provider} payment ${update.externalPaymentId} is ${update.status}`;
  if (!payment) {
    await logChange(tx, { userId: null, eventType: "WEBHOOK", logLevel: "WARNING", newState: update, description: `${describe}, but no order has this payment` });
    return;
  }
  const current = await lockOrderWithDetail(tx, payment.orderId, { status: order.status, orderNumber: order.orderNumber, shippingDate: orderDetail.estimatedShippingDate });
  if (!current) throw new AppError("NOT_FOUND", `Order ${payment.orderId} does not exist.`);
  const change = `${describe}.${note ? ` ${note}` : ""}`;

  if (update.status === "paid" || update.status === "authorized") {
    const authorized = update.status === "authorized";
    if (!update.amount.equals(payment.total)) {
      const held = authorized ? "it is left uncaptured and the order stays PENDING" : "the order stays PENDING and does not expire";
      await flagPayment(tx, payment.orderId, update, `${describe} for ${formatEuro(update.amount)}, but order ${current.orderNumber} costs ${formatEuro(payment.total)}; ${held} until staff settle it`);
      return;
    }
    if (current.status !== "PENDING") {
      const advice = authorized ? "it is left uncaptured and lapses; tell the buyer" : "refund the payment or restore the order";
      await flagPayment(tx, payment.orderId, update, `${describe}, but order ${current.orderNumber} is ${current.status}; ${advice}`);
      return;
    }
    if (authorized) {
      await logChange(tx, { userId: null, eventType: "WEBHOOK", entityType: "ORDER", entityId: payment.orderId, newState: update, description: `${describe}; order ${current.orderNumber} stays PENDING until the capture is paid` });
      return "capture";
    }
    const future = current.shippingDate !== null && (await isFutureShipmentNow(tx, current.shippingDate, now));
    await transitionOrder(tx, payment.orderId, future ? "PAID_FUTURE_SHIPMENT" : "PAID_READY_TO_SHIP", { userId: null, description: change, now });
    await notifyStaff(tx, { type: "ORDER", message: `Order ${current.orderNumber} is paid (${formatEuro(payment.total)})${future ? ", to ship later" : " and ready to ship"}` });
    // Unpaid orders hold no coupon use, so more of them than a coupon allows may be paid: the money is taken and the
    // order stands, and staff decide (N-L4).
    for (const coupon of await couponsBeyondLimit(tx, payment.orderId)) {
      const message = `Order ${current.orderNumber} was paid with code ${coupon.code}, now used by ${coupon.uses} paid orders against its limit of ${coupon.usageLimit}; the order stands with its discount`;
      await logOrderChange(tx, payment.orderId, { userId: null, logLevel: "WARNING", newState: { coupon: coupon.code, uses: coupon.uses, usageLimit: coupon.usageLimit }, description: message });
      await notifyStaff(tx, { type: "ORDER", severity: "WARNING", message });
    }
    return;
  }
  // A failure after the order was paid (a second, abandoned payment attempt) or cancelled changes nothing.
  if (current.status !== "PENDING") {
    await logChange(tx, { userId: null, eventType: "WEBHOOK", entityType: "ORDER", entityId: payment.orderId, newState: update, description: `${describe}; order ${current.orderNumber} is ${current.status} and stays so` });
    return;
  }
  await transitionOrder(tx, payment.orderId, "CANCELLED", { userId: null, description: change, now });
}

async function flagPayment(tx: Db, orderId: number, update: PaymentUpdate, message: string): Promise<void> {
  await logChange(tx, { userId: null, eventType: "WEBHOOK", entityType: "ORDER", entityId: orderId, logLevel: "ERROR", newState: update, description: message });
  await notifyStaff(tx, { type: "ORDER", severity: "ERROR", message });
}

/** What one run of the unpaid-order sweep did, for the job to log and to send the confirmation e-mails of. */
export type UnpaidOrderSweep = {
  /** Order numbers cancelled, their stock returned: not paid in time, or their payment failed at the provider. */
  expired: string[];
  /** Orders the provider had been paid for although no webhook said so; now paid, their e-mail still to send. */
  paid: { orderNumber: string; outcome: WebhookOutcome }[];
  /** Orders left PENDING for now, and why: a payment still open or being captured at the provider. */
  waiting: { orderNumber: string; reason: string }[];
  /** Orders left PENDING because their provider could not be asked; the next run tries again. */
  failed: { orderNumber: string; error: string }[];
};

export type UnpaidOrderSweepOptions = {
  holds: UnpaidHolds;
  paymentsFor: (gateway: PaymentGateway) => PaymentsPort;
  now?: Date;
  /**
   * What a settled payment does to its order, with the sweep's words for the logbook: `applyPaymentUpdate` unless the
   * caller does more in the same transaction (the confirmation e-mail of an order found paid).
   */
  settle?: (note: string) => OnPaymentUpdate;
};

type SweepStep = { kind: "expired" } | { kind: "paid"; outcome: WebhookOutcome } | { kind: "waiting"; reason: string } | { kind: "settled elsewhere" };

/**
 * The unpaid-order sweep. For each PENDING order placed longer ago than the shortest of `holds` it asks the
 * payment's provider first, since a webhook can be late or lost and some payments take days:
 * - a payment the provider has settled (paid, failed, ...) is acted on as its webhook would have been
 *   (`actOnProviderPayment`): a paid order gets paid, and the webhook, when it comes, is a duplicate;
 * - an authorized payment is captured, and its order waits for the provider to report it paid;
 * - an open or pending payment leaves its order waiting while the order still holds its pieces for its payment
 *   method (`holdEndsAt`: minutes for a card, hours for PayPal, as long as the provider keeps a bank transfer open);
 * - once the hold is over, an open payment is cancelled at the provider, so the buyer can no longer pay it, and the
 *   order with it, which returns its stock. One the provider will not cancel (the buyer is in the middle of paying)
 *   waits.
 * An order whose payment never started (or that its provider does not know) just expires; one whose provider does not
 * answer waits for the next run; one whose payment was put before staff (money for another amount, an authorization
 * left uncaptured) is theirs to decide and is not looked at. Provider calls are made outside any transaction; each
 * order is locked while it changes, so a webhook settling it at the same moment waits, and is then a duplicate.
 */
export async function expireUnpaidOrders(db: Db, options: UnpaidOrderSweepOptions): Promise<UnpaidOrderSweep> {
  const now = options.now ?? new Date();
  const shortestHold = Math.min(options.holds.minutes, options.holds.paypalMinutes);
  const flaggedPayment = db
    .select({ id: webhookEvent.id })
    .from(webhookEvent)
    .where(and(eq(webhookEvent.externalPaymentId, paymentDetail.externalPaymentId), inArray(webhookEvent.status, ["paid", "authorized"])));
  const stale = await db
    .select({
      id: order.id,
      orderNumber: order.orderNumber,
      createdAt: order.createdAt,
      method: paymentDetail.provider,
      externalPaymentId: paymentDetail.externalPaymentId,
    })
    .from(order)
    .leftJoin(paymentDetail, eq(paymentDetail.orderId, order.id))
    // An order on ACCOUNT is a manual order staff settle themselves; no provider will ever report it paid.
    .where(
      and(
        eq(order.status, "PENDING"),
        lt(order.createdAt, new Date(now.getTime() - shortestHold * 60_000)),
        notExists(flaggedPayment),
        or(isNull(paymentDetail.provider), ne(paymentDetail.provider, "ACCOUNT")),
      ),
    )
    .orderBy(asc(order.id));

  const sweep: UnpaidOrderSweep = { expired: [], paid: [], waiting: [], failed: [] };
  for (const candidate of stale) {
    let step: SweepStep;
    try {
      step = await sweepOrder(db, candidate, options, now);
    } catch (error) {
      sweep.failed.push({ orderNumber: candidate.orderNumber, error: errorMessage(error) });
      continue;
    }
    if (step.kind === "expired") sweep.expired.push(candidate.orderNumber);
    else if (step.kind === "paid") sweep.paid.push({ orderNumber: candidate.orderNumber, outcome: step.outcome });
    else if (step.kind === "waiting") sweep.waiting.push({ orderNumber: candidate.orderNumber, reason: step.reason });
  }
  return sweep;
}

async function sweepOrder(
  db: Db,
  candidate: { id: number; createdAt: Date; method: string | null; externalPaymentId: string | null },
  { holds, paymentsFor, settle }: UnpaidOrderSweepOptions,
  now: Date,
): Promise<SweepStep> {
  const { externalPaymentId, method } = candidate;
  if (!externalPaymentId || !method || !isOnlinePaymentMethod(method)) {
    return expireOrder(db, candidate.id, "Not paid in time: the order expired; its payment never started.", now);
  }
  const payments = paymentsFor(gatewayForMethod(method));
  let payment = await foundOrNull(payments.getPayment(externalPaymentId));
  if (!payment) {
    return expireOrder(db, candidate.id, `Not paid in time: the order expired; ${payments.provider} does not know its payment ${externalPaymentId}.`, now);
  }

  let note = "The unpaid-order sweep found it so; no webhook had reported it.";
  if (payment.status === "open" || payment.status === "pending") {
    const heldUntil = holdEndsAt(method, candidate.createdAt, holds);
    if (heldUntil > now) return { kind: "waiting", reason: `its ${method} payment can be paid until ${heldUntil.toISOString()}` };
    payment = await payments.cancelPayment(externalPaymentId);
    if (payment.status === "open" || payment.status === "pending") return { kind: "waiting", reason: `${payments.provider} will not cancel its ${payment.status} payment` };
    if (payment.status === "canceled") note = "Not paid in time: the shop cancelled the payment and the order expired.";
  }

  const outcome = await actOnProviderPayment(db, {
    payments,
    payment,
    eventId: null,
    onPaymentUpdate: settle ? settle(note) : (tx, update) => applyPaymentUpdate(tx, update, now, note),
  });
  const [after] = await db.select({ status: order.status }).from(order).where(eq(order.id, candidate.id));
  if (after?.status === "CANCELLED") return { kind: "expired" };
  if (after && (paidOrderStatuses as readonly string[]).includes(after.status)) return { kind: "paid", outcome };
  return { kind: "waiting", reason: outcome.result === "capturing" ? "its authorized payment is being captured" : `its payment is ${payment.status}` };
}

/** Cancels an order still PENDING, under its lock; one settled meanwhile is left as it is. */
async function expireOrder(db: Db, orderId: number, description: string, now: Date): Promise<SweepStep> {
  return db.transaction(async (tx) => {
    const locked = await lockRow(tx, order, orderId, { status: order.status });
    if (locked?.status !== "PENDING") return { kind: "settled elsewhere" as const };
    await transitionOrder(tx, orderId, "CANCELLED", { userId: null, description, now });
    return { kind: "expired" as const };
  });
}
