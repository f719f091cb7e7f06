import { and, asc, eq, lt } from "drizzle-orm";
import type { OrderStatus } from "@/lib/enums";
import { formatEuro } from "@/lib/money";
import type { Db } from "@/server/db/client";
import { order, orderDetail, orderItem, paymentDetail } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { logChange } from "@/server/logbook/service";
import { notifyStaff } from "@/server/notifications/service";
import { isFutureShipmentNow } from "@/server/shipping/service";
import { bookStock } from "@/server/stock/service";
import type { PaymentUpdate } from "@/server/webhooks/schemas";
import { assertOrderTransition } from "./order-machine";

/**
 * Orders after they are placed: moving them through the state machine, acting on settled payments, giving back the
 * stock of orders that will not be paid. Every change is logged in the caller's transaction.
 */

type Actor = { userId: string | null; description: string; now?: Date };

/**
 * Moves an order to another status, refusing (CONFLICT) what the state machine does not allow. The order row is
 * locked first, so a webhook and the expiry sweep cannot both act on one order. Paying sets `soldAt`; cancelling
 * returns the order's stock to the shelves through the ledger.
 */
export async function transitionOrder(tx: Db, orderId: number, to: OrderStatus, actor: Actor): Promise<void> {
  const [current] = await tx
    .select({ status: order.status, orderNumber: order.orderNumber, soldAt: order.soldAt })
    .from(order)
    .where(eq(order.id, orderId))
    .for("update");
  if (!current) throw new AppError("NOT_FOUND", `Order ${orderId} does not exist.`);
  assertOrderTransition(current.orderNumber, current.status, to);
  const paying = current.status === "PENDING" && (to === "PAID_READY_TO_SHIP" || to === "PAID_FUTURE_SHIPMENT");
  const soldAt = paying ? (actor.now ?? new Date()) : current.soldAt;
  await tx.update(order).set({ status: to, soldAt }).where(eq(order.id, orderId));
  await logChange(tx, {
    userId: actor.userId,
    eventType: "ORDER",
    entityType: "ORDER",
    entityId: orderId,
    previousState: { status: current.status, soldAt: current.soldAt },
    newState: { status: to, soldAt },
    description: `Order ${current.orderNumber}: ${current.status} → ${to}. ${actor.description}`,
  });
  if (to === "CANCELLED") await returnOrderStock(tx, orderId, current.orderNumber, actor.userId);
}

/** Books every item of a cancelled order back into stock, one ORDER_ITEM ledger row per item. */
async function returnOrderStock(tx: Db, orderId: number, orderNumber: string, userId: string | null): Promise<void> {
  const items = await tx
    .select({ id: orderItem.id, productId: orderItem.productId, quantity: orderItem.quantity })
    .from(orderItem)
    .where(eq(orderItem.orderId, orderId))
    // One product order for every booking transaction, so two of them never wait on each other's locks.
    .orderBy(asc(orderItem.productId), asc(orderItem.id));
  for (const item of items) {
    await bookStock(tx, {
      productId: item.productId,
      quantity: item.quantity,
      type: "ORDER_ITEM",
      orderItemId: item.id,
      userId,
      description: `Order ${orderNumber} was cancelled: ${item.quantity} back in stock`,
    });
  }
}

/**
 * What a settled payment does to its order (the webhook's `onPaymentUpdate`): paid makes a PENDING order
 * PAID_READY_TO_SHIP, or PAID_FUTURE_SHIPMENT when its shipping date lies after the next shipping day; failed,
 * cancelled or expired cancel it and return its stock. The order is found by the payment id we stored, never by
 * what the provider's metadata claims. Anything that does not fit (money for an order already cancelled, an
 * amount that differs from the order's total) changes no order and is put before staff.
 */
export async function applyPaymentUpdate(tx: Db, update: PaymentUpdate, now: Date = new Date()): Promise<void> {
  const [payment] = await tx
    .select({ orderId: paymentDetail.orderId, total: paymentDetail.total })
    .from(paymentDetail)
    .where(eq(paymentDetail.externalPaymentId, update.externalPaymentId));
  const describe = `${update.provider} payment ${update.externalPaymentId} is ${update.status}`;
  if (!payment) {
    await logChange(tx, { userId: null, eventType: "WEBHOOK", logLevel: "WARNING", newState: update, description: `${describe}, but no order has this payment` });
    return;
  }
  const [current] = await tx
    .select({ status: order.status, orderNumber: order.orderNumber, shippingDate: orderDetail.estimatedShippingDate })
    .from(order)
    .leftJoin(orderDetail, eq(orderDetail.orderId, order.id))
    .where(eq(order.id, payment.orderId))
    .for("update", { of: order });
  if (!current) throw new AppError("NOT_FOUND", `Order ${payment.orderId} does not exist.`);

  if (update.status === "paid" || update.status === "authorized") {
    if (!update.amount.equals(payment.total)) {
      await flagPayment(tx, payment.orderId, update, `${describe} for ${formatEuro(update.amount)}, but order ${current.orderNumber} costs ${formatEuro(payment.total)}; check it before shipping`);
      return;
    }
    if (current.status !== "PENDING") {
      await flagPayment(tx, payment.orderId, update, `${describe}, but order ${current.orderNumber} is ${current.status}; refund the payment or restore the order`);
      return;
    }
    const future = current.shippingDate !== null && (await isFutureShipmentNow(tx, current.shippingDate, now));
    await transitionOrder(tx, payment.orderId, future ? "PAID_FUTURE_SHIPMENT" : "PAID_READY_TO_SHIP", { userId: null, description: `${describe}.`, now });
    await notifyStaff(tx, { type: "ORDER", message: `Order ${current.orderNumber} is paid (${formatEuro(payment.total)})${future ? ", to ship later" : " and ready to ship"}` });
    return;
  }
  // A failure after the order was paid (a second, abandoned payment attempt) or cancelled changes nothing.
  if (current.status !== "PENDING") {
    await logChange(tx, { userId: null, eventType: "WEBHOOK", entityType: "ORDER", entityId: payment.orderId, newState: update, description: `${describe}; order ${current.orderNumber} is ${current.status} and stays so` });
    return;
  }
  await transitionOrder(tx, payment.orderId, "CANCELLED", { userId: null, description: `${describe}.`, now });
}

async function flagPayment(tx: Db, orderId: number, update: PaymentUpdate, message: string): Promise<void> {
  await logChange(tx, { userId: null, eventType: "WEBHOOK", entityType: "ORDER", entityId: orderId, logLevel: "ERROR", newState: update, description: message });
  await notifyStaff(tx, { type: "ORDER", severity: "ERROR", message });
}

/**
 * Cancels the PENDING orders placed before `olderThan` (their buyer never finished paying) and returns their
 * stock. Each order is its own transaction, so one that a webhook is settling at the same moment waits for it and
 * is then left alone. Returns the order numbers it cancelled.
 */
export async function expireUnpaidOrders(db: Db, olderThan: Date, now: Date = new Date()): Promise<string[]> {
  const stale = await db
    .select({ id: order.id })
    .from(order)
    .where(and(eq(order.status, "PENDING"), lt(order.createdAt, olderThan)))
    .orderBy(asc(order.id));
  const expired: string[] = [];
  for (const { id } of stale) {
    const orderNumber = await db.transaction(async (tx) => {
      const [locked] = await tx.select({ status: order.status, orderNumber: order.orderNumber }).from(order).where(eq(order.id, id)).for("update");
      if (locked?.status !== "PENDING") return null;
      await transitionOrder(tx, id, "CANCELLED", { userId: null, description: "Not paid in time: the order expired.", now });
      return locked.orderNumber;
    });
    if (orderNumber) expired.push(orderNumber);
  }
  return expired;
}
