import "server-only";
import { and, asc, eq, getTableColumns, inArray, isNotNull, sql } from "drizzle-orm";
import type { SelectResultFields } from "drizzle-orm/query-builders/select.types";
import type { PgSelect, SelectedFields } from "drizzle-orm/pg-core";
import { moneyBackRefundStatuses } from "@/lib/enums";
import type { Db } from "@/server/db/client";
import { country, order, orderAddress, orderDetail, orderItem, paymentDetail, product, refund } from "@/server/db/schema";

/**
 * Joins an order query (`db.select(...).from(order).$dynamic()`) with the order's address, details and payment: every
 * order has one of each. The selection is the caller's columns (not whole tables), so the joins leave its row type
 * as it is.
 */
export function withOrderDetails<T extends PgSelect>(query: T): T {
  return query
    .innerJoin(orderAddress, eq(orderAddress.orderId, order.id))
    .innerJoin(orderDetail, eq(orderDetail.orderId, order.id))
    .innerJoin(paymentDetail, eq(paymentDetail.orderId, order.id)) as unknown as T;
}

/**
 * An order with its address, details and payment (one row each), and the country it ships to: the shop's row for the
 * address's country, null should the shop no longer list it. The caller adds the `where`, limit and any lock.
 */
export function selectOrderWithDetails(db: Db) {
  // The joined tables are selected by their columns: a dynamic query types a whole table it has not joined yet as missing.
  const columns = { order, address: getTableColumns(orderAddress), detail: getTableColumns(orderDetail), payment: getTableColumns(paymentDetail), destination: country };
  return withOrderDetails(db.select(columns).from(order).$dynamic()).leftJoin(country, eq(country.code, orderAddress.countryCode));
}

/**
 * An order's row locked for the caller's transaction, read with the caller's columns of it and its details; null for
 * an unknown order. Only the order's row is locked, so the details read are those from before any wait for the lock:
 * a caller that goes on to write a detail it read here locks the details too (as `assignInvoiceNumber` does).
 */
export async function lockOrderWithDetail<TFields extends SelectedFields>(tx: Db, orderId: number, fields: TFields): Promise<SelectResultFields<TFields> | null> {
  // Drizzle cannot work out the row type for generic fields; an inner join leaves it the fields' own.
  const query = tx
    .select(fields as SelectedFields)
    .from(order)
    .innerJoin(orderDetail, eq(orderDetail.orderId, order.id))
    .where(eq(order.id, orderId))
    .for("update", { of: order }) as unknown as Promise<SelectResultFields<TFields>[]>;
  const [row] = await query;
  return row ?? null;
}

/** An order's lines in the order they were added, with each product's name (and, from the marketplace, its line there). */
export async function readOrderLines(db: Db, orderId: number) {
  return db
    .select({
      itemId: orderItem.id,
      productId: orderItem.productId,
      name: product.name,
      quantity: orderItem.quantity,
      totalPrice: orderItem.totalPrice,
      totalDiscountAmount: orderItem.totalDiscountAmount,
      priceOverrideReason: orderItem.priceOverrideReason,
      oversoldQuantity: orderItem.oversoldQuantity,
      marketplaceLineItemId: orderItem.marketplaceLineItemId,
    })
    .from(orderItem)
    .innerJoin(product, eq(product.id, orderItem.productId))
    .where(eq(orderItem.orderId, orderId))
    .orderBy(asc(orderItem.id));
}

/**
 * The pieces of each of an order's lines that its refunds gave back (PENDING and REFUNDED), by order item: put back in
 * stock with their refund, or refunded without (damaged) and not for sale again. A cancellation returns the rest.
 */
export async function refundedPiecesByLine(db: Db, orderId: number): Promise<Map<number, number>> {
  const rows = await db
    .select({ orderItemId: refund.refundedOrderItemId, pieces: sql<number>`sum(${refund.quantity})`.mapWith(Number) })
    .from(refund)
    .where(and(eq(refund.orderId, orderId), inArray(refund.status, [...moneyBackRefundStatuses]), isNotNull(refund.refundedOrderItemId)))
    .groupBy(refund.refundedOrderItemId);
  return new Map(rows.map((row) => [row.orderItemId!, row.pieces]));
}
