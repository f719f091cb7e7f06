import "server-only";
import { Decimal } from "decimal.js";
import { and, asc, eq, inArray } from "drizzle-orm";
import { moneyBackRefundStatuses } from "@/lib/enums";
import { refundKindOf } from "@/lib/refund-kind";
import type { Db } from "@/server/db/client";
import { orderItem, product, refund } from "@/server/db/schema";
import type { CustomerRefund } from "./schemas";

/**
 * What the customer sees of an order's refunds, for the order's one view (`./view.ts`): those whose money went back or
 * is on its way (PENDING, REFUNDED), oldest first, and their sum. A refund the provider refused gave nothing back and
 * was never announced to the customer (the e-mail goes when the provider accepts one); staff retry it, and it shows
 * once it is on its way. A plain read of the refunds' rows: refunds (which write them) move orders, so the order's
 * view reads them here rather than through refunds.
 */
export async function readCustomerRefunds(db: Db, orderId: number): Promise<{ refunds: CustomerRefund[]; refundedTotal: string }> {
  const rows = await db
    .select({
      id: refund.id,
      type: refund.type,
      orderItemId: refund.refundedOrderItemId,
      productName: product.name,
      quantity: refund.quantity,
      amount: refund.amount,
      status: refund.status,
      createdAt: refund.createdAt,
      settledAt: refund.settledAt,
    })
    .from(refund)
    .leftJoin(orderItem, eq(orderItem.id, refund.refundedOrderItemId))
    .leftJoin(product, eq(product.id, orderItem.productId))
    .where(and(eq(refund.orderId, orderId), inArray(refund.status, [...moneyBackRefundStatuses])))
    .orderBy(asc(refund.id));
  const refundedTotal = rows.reduce((total, row) => total.plus(row.amount), new Decimal(0));
  return {
    refunds: rows.map(({ id, type, orderItemId, productName, quantity, amount, status, createdAt, settledAt }) => ({
      id,
      kind: refundKindOf({ type, orderItemId }),
      productName,
      quantity,
      amount: amount.toFixed(2),
      status,
      createdAt,
      settledAt,
    })),
    refundedTotal: refundedTotal.toFixed(2),
  };
}
