import "server-only";
import { asc, eq, sql, type SQL } from "drizzle-orm";
import type { OrderStatus, PaymentProvider, Shop } from "@/lib/enums";
import { refundKindOf } from "@/lib/refund-kind";
import type { Db } from "@/server/db/client";
import { order, orderItem, product, refund, user } from "@/server/db/schema";
import { orderLineOf } from "@/server/orders/order-line";
import { readOrderLines, selectOrderWithDetails } from "@/server/orders/order-rows";
import { storedOrderTotals } from "@/server/orders/totals";
import { refundChannel, refundLedger, type RefundChannel, type RefundLedger, type RefundOrderLine } from "./rules";
import type { RefundView } from "./schemas";

/**
 * The reads the refunds share: an order as the refund rules see it, and refunds as staff see them (the customer's are
 * read with the order's view, `orders/customer-refunds.ts`).
 */

export type RefundRow = typeof refund.$inferSelect & { productId: number | null; productName: string | null; staffName: string | null };

/** Refunds with their line's product and the staff member who gave them, oldest first. */
export async function readRefundRows(db: Db, where: SQL): Promise<RefundRow[]> {
  return db
    .select({
      ...refundColumns,
      productId: orderItem.productId,
      productName: product.name,
      staffName: sql<string | null>`coalesce(${user.name}, ${user.email})`,
    })
    .from(refund)
    .leftJoin(orderItem, eq(orderItem.id, refund.refundedOrderItemId))
    .leftJoin(product, eq(product.id, orderItem.productId))
    .leftJoin(user, eq(user.id, refund.userId))
    .where(where)
    .orderBy(asc(refund.id));
}

const refundColumns = {
  id: refund.id,
  orderId: refund.orderId,
  externalRefundId: refund.externalRefundId,
  originalPaymentId: refund.originalPaymentId,
  type: refund.type,
  refundedOrderItemId: refund.refundedOrderItemId,
  quantity: refund.quantity,
  amount: refund.amount,
  restockedProduct: refund.restockedProduct,
  providerFees: refund.providerFees,
  reason: refund.reason,
  comment: refund.comment,
  monetaryRefund: refund.monetaryRefund,
  status: refund.status,
  idempotencyKey: refund.idempotencyKey,
  sentAt: refund.sentAt,
  failureMessage: refund.failureMessage,
  settledAt: refund.settledAt,
  userId: refund.userId,
  createdAt: refund.createdAt,
  updatedAt: refund.updatedAt,
};

export function toRefundView(row: RefundRow): RefundView {
  return {
    id: row.id,
    kind: refundKindOf({ type: row.type, orderItemId: row.refundedOrderItemId }),
    type: row.type,
    orderItemId: row.refundedOrderItemId,
    productName: row.productName,
    quantity: row.quantity,
    amount: row.amount.toFixed(2),
    restocked: row.restockedProduct,
    reason: row.reason,
    comment: row.comment,
    status: row.status,
    failureMessage: row.status === "FAILED" ? row.failureMessage : null,
    externalRefundId: row.externalRefundId,
    monetary: row.monetaryRefund,
    createdAt: row.createdAt,
    settledAt: row.settledAt,
    staffName: row.staffName,
  };
}

export type RefundOrderLineRow = RefundOrderLine & { productId: number };

/** An order as the refund rules see it: what was paid, how, and every refund so far. */
export type RefundOrderState = {
  orderId: number;
  orderNumber: string;
  status: OrderStatus;
  soldAt: Date | null;
  userId: string | null;
  shop: Shop;
  marketplaceOrderId: string | null;
  trackingNumber: string | null;
  payment: { provider: PaymentProvider; externalPaymentId: string | null };
  channel: RefundChannel;
  lines: RefundOrderLineRow[];
  refunds: RefundRow[];
  ledger: RefundLedger;
};

/**
 * The order `where` picks with its lines, payment and refunds; null when there is none. With `lock`, the order's row
 * is locked for the caller's transaction first (`select ... for update`), so refunds of one order are given one after
 * the other and each is checked against all that came before it.
 */
export async function readRefundOrderState(db: Db, where: SQL, options: { lock: boolean }): Promise<RefundOrderState | null> {
  const query = selectOrderWithDetails(db).where(where).limit(1);
  const [row] = await (options.lock ? query.for("update", { of: order }) : query);
  if (!row) return null;
  // One after the other: `db` may be a transaction, whose one connection takes one query at a time.
  const lines = await readOrderLines(db, row.order.id);
  const refunds = await readRefundRows(db, eq(refund.orderId, row.order.id));
  const totals = storedOrderTotals(lines, row.payment);
  const refundLines = lines.map((line) => ({ ...orderLineOf(line), totalPrice: line.totalPrice, oversoldQuantity: line.oversoldQuantity }));
  const payment = { provider: row.payment.provider, externalPaymentId: row.payment.externalPaymentId };
  return {
    orderId: row.order.id,
    orderNumber: row.order.orderNumber,
    status: row.order.status,
    soldAt: row.order.soldAt,
    userId: row.order.userId,
    shop: row.detail.shop,
    marketplaceOrderId: row.detail.marketplaceOrderId,
    trackingNumber: row.detail.trackingNumber,
    payment,
    channel: refundChannel(row.detail.shop, payment),
    lines: refundLines,
    refunds,
    ledger: refundLedger(
      refundLines,
      totals,
      refunds.map((refundRow) => ({ type: refundRow.type, orderItemId: refundRow.refundedOrderItemId, quantity: refundRow.quantity, amount: refundRow.amount, status: refundRow.status })),
      // What the customer paid: the payment's amount, which an edit of a paid order does not move.
      row.payment.total,
    ),
  };
}
