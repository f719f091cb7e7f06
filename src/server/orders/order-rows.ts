import "server-only";
import { asc, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { order, orderAddress, orderDetail, orderItem, paymentDetail, product } from "@/server/db/schema";

/** An order with its address, details and payment (one row each); the caller adds the `where`, limit and any lock. */
export function selectOrderWithDetails(db: Db) {
  return db
    .select({ order, address: orderAddress, detail: orderDetail, payment: paymentDetail })
    .from(order)
    .innerJoin(orderAddress, eq(orderAddress.orderId, order.id))
    .innerJoin(orderDetail, eq(orderDetail.orderId, order.id))
    .innerJoin(paymentDetail, eq(paymentDetail.orderId, order.id));
}

/** An order's lines in the order they were added, with each product's name. */
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
    })
    .from(orderItem)
    .innerJoin(product, eq(product.id, orderItem.productId))
    .where(eq(orderItem.orderId, orderId))
    .orderBy(asc(orderItem.id));
}
