import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { formatEuro } from "@/lib/money";
import type { Db } from "@/server/db/client";
import { order, stockRecord } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { notifyStaff } from "@/server/notifications/service";
import { transitionOrder } from "@/server/orders/service";
import { bookStock } from "@/server/stock/service";
import { queueRefundEmail } from "./refund-email";
import { describeRefund, type RefundActor } from "./refund-log";
import { readRefundOrderState, type RefundRow } from "./refund-rows";
import { cancelledWhenRefundedInFull, isRefundedInFull } from "./rules";

/*
 * A refund's money gone back, whichever way it went (the provider accepted it, refund-payout.ts, or staff paid it by
 * hand, service.ts): the pieces put back booked into stock, the customer's e-mail, and an order not shipped yet that
 * is now refunded in full cancelled.
 */
/**
 * What follows from a refund's money going back (the provider accepted it, or staff recorded one paid by hand), in
 * that transaction, once per refund: the pieces staff put back are booked into stock, the customer's e-mail is
 * written, and an order not shipped yet that its refunds now pay back in full is cancelled.
 */
export async function moneyWentBack(tx: Db, row: RefundRow, actor: RefundActor): Promise<void> {
  const state = await readRefundOrderState(tx, eq(order.id, row.orderId), { lock: true });
  if (!state) throw new AppError("NOT_FOUND", `Order ${row.orderId} does not exist.`);
  const pieces = (row.quantity ?? 0) - (await bookedPieces(tx, row.id));
  if (row.restockedProduct && row.refundedOrderItemId !== null && row.productId !== null && pieces > 0) {
    await bookStock(tx, {
      productId: row.productId,
      quantity: pieces,
      type: "REFUND",
      refundId: row.id,
      orderItemId: row.refundedOrderItemId,
      userId: row.userId,
      description: `${describeRefund(row, state.orderNumber)}: ${pieces} × ${row.productName ?? "the product"} back in stock`,
    });
  }
  await queueRefundEmail(tx, row.id);

  const unshipped = (cancelledWhenRefundedInFull as readonly string[]).includes(state.status);
  if (unshipped && isRefundedInFull(state.ledger)) {
    await transitionOrder(tx, state.orderId, "CANCELLED", {
      userId: actor.userId,
      description: `Refunded in full (${formatEuro(state.ledger.refunded)}) before it shipped.`,
      now: actor.now,
    });
    if (state.trackingNumber) {
      await notifyStaff(tx, {
        type: "REFUND",
        severity: "WARNING",
        message: `Order ${state.orderNumber} was refunded in full and cancelled, but its label ${state.trackingNumber} is still valid: void it.`,
      });
    }
  }
}

/** The pieces of a refund booked back into stock so far (0, or its quantity). */
export async function bookedPieces(tx: Db, refundId: number): Promise<number> {
  const [booked] = await tx
    .select({ pieces: sql<number>`coalesce(sum(${stockRecord.quantity}), 0)`.mapWith(Number) })
    .from(stockRecord)
    .where(and(eq(stockRecord.refundId, refundId), eq(stockRecord.type, "REFUND")));
  return booked?.pieces ?? 0;
}
