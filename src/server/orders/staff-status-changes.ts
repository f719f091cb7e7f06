import "server-only";
import { eq } from "drizzle-orm";
import type { OrderStatus } from "@/lib/enums";
import type { Db } from "@/server/db/client";
import { lockExistingRow } from "@/server/db/lock-row";
import { order, orderDetail } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { staffOrderStatuses, type StaffOrderStatus, type TransitionOutcome } from "./admin-schemas";
import { changeEachOrderApart } from "./each-order-apart";
import { orderMachine } from "./order-machine";
import { transitionOrder } from "./service";

/**
 * Status changes by staff: what the order machine allows less what staff may not do by hand (`staffRefusal`), the one
 * check of the order admin's changes and of cancelling with a refund (`assertStaffChange`), and the bulk change of
 * the order table (`transitionOrders`).
 */

type StaffChangeState = { orderNumber: string; status: OrderStatus; trackingNumber: string | null };

/**
 * Why staff may not make a change the order machine allows, or null. A payment settles a PENDING order (a manual
 * one is marked paid on its own page), and an order with a label is only sent on or shipped until the label is
 * voided: otherwise a parcel with a paid label would wait as if it had none, or leave for a cancelled order.
 */
function staffRefusal(current: StaffChangeState, to: StaffOrderStatus): string | null {
  if (current.status === "PENDING" && (to === "PAID_READY_TO_SHIP" || to === "PAID_FUTURE_SHIPMENT")) {
    return `Order ${current.orderNumber} is awaiting payment: its payment marks it paid (a manual order is marked paid on its edit page).`;
  }
  if (current.trackingNumber && to !== "PROCESSED") {
    return `Order ${current.orderNumber} has a label (tracking ${current.trackingNumber}): void the label first.`;
  }
  return null;
}

/**
 * The statuses staff may move an order to from its page: what the machine allows, less what `staffRefusal` refuses.
 * Cancelling there goes through `admin.refunds.cancelOrder`, which pays a paid order's money back with it.
 */
export function staffTransitions(current: StaffChangeState): StaffOrderStatus[] {
  return staffOrderStatuses.filter((to) => orderMachine.can(current.status, to) && staffRefusal(current, to) === null);
}

/**
 * Refuses (CONFLICT) a change of an order, locked by the caller, that the order machine or `staffRefusal` does not
 * allow staff: the one check of the order admin's status changes and of cancelling with a refund.
 */
export async function assertStaffChange(tx: Db, current: { orderId: number; orderNumber: string; status: OrderStatus }, to: StaffOrderStatus): Promise<void> {
  const [detail] = await tx.select({ trackingNumber: orderDetail.trackingNumber }).from(orderDetail).where(eq(orderDetail.orderId, current.orderId));
  orderMachine.assert(current.orderNumber, current.status, to);
  const refusal = staffRefusal({ ...current, trackingNumber: detail?.trackingNumber ?? null }, to);
  if (refusal) throw new AppError("CONFLICT", refusal);
}

/**
 * Moves each order to `to` through `transitionOrder`, each in its own transaction, so one refusal does not hold the
 * others back. Each order answers done, or refused with the order machine's message (or why staff may not). A paid
 * order is not cancelled here: its money must go back with it, which cancelling from its page does
 * (`admin.refunds.cancelOrder`); a status change alone would keep the money and return the stock.
 */
export async function transitionOrders(db: Db, orderIds: readonly number[], to: StaffOrderStatus, actor: { userId: string }): Promise<TransitionOutcome> {
  const { done, refused } = await changeEachOrderApart(db, orderIds, async (tx, orderId, found) => {
    const current = await lockExistingRow(tx, order, orderId, { orderNumber: order.orderNumber, status: order.status }, "Order");
    found(current.orderNumber);
    await assertStaffChange(tx, { orderId, ...current }, to);
    if (to === "CANCELLED" && current.status !== "PENDING") {
      throw new AppError("CONFLICT", `Order ${current.orderNumber} is paid: cancel it with "Cancel order" on its page, which refunds what was paid.`);
    }
    await transitionOrder(tx, orderId, to, { userId: actor.userId, description: "Changed by staff in the order admin." });
  });
  return { done: done.map((row) => ({ ...row, status: to })), refused };
}
