import "server-only";
import { Decimal } from "decimal.js";
import { and, eq, inArray, sql, type AnyColumn, type SQL } from "drizzle-orm";
import { moneyBackRefundStatuses } from "@/lib/enums";
import { SHOP_TIME_ZONE } from "@/lib/shop-clock";
import type { Db } from "@/server/db/client";
import { order, orderDetail, refund } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { paidOrderStatuses } from "@/server/orders/order-machine";
import { orderLineOf } from "@/server/orders/order-line";
import { readOrderLines, selectOrderWithDetails } from "@/server/orders/order-rows";
import { storedOrderTotals } from "@/server/orders/totals";
import { lineCosts, type LineCost } from "./line-costs";
import type { OrderMargin, OrderMarginLine } from "./schemas";

export const ZERO = new Decimal(0);
const sum = (amounts: readonly Decimal[]) => amounts.reduce((total, amount) => total.plus(amount), ZERO);
/** The month of a moment in shop time, "2026-03". */
const shopMonth = (column: AnyColumn) => sql<string>`to_char(${column} at time zone ${SHOP_TIME_ZONE}, 'YYYY-MM')`;

/*
 * What an order earned, for its page: what the customer paid less the purchase cost of the pieces kept, as recorded
 * when they left stock (line-costs.ts), the provider's fees, the label and the refunds that gave money back. `marginOf` is the one
 * margin formula; the monthly margins (monthly-margins.ts) use it too.
 */
/** Refunds whose money went back or is on its way, as the refund rules count them. */
export const refundGivingBack: SQL = inArray(refund.status, [...moneyBackRefundStatuses]);

/** What makes up a margin, for one order or many. */
type MarginParts = { paid: Decimal; purchaseCost: Decimal; providerFees: Decimal; labelCost: Decimal; refunds: Decimal };

/**
 * The one margin formula: what the customers paid (items after discounts, shipping and surcharge) less the purchase
 * cost of the pieces they kept (first bought, first sold), the provider's fees (the payments' and the refunds'), the
 * labels and the refunds that gave money back. Restocked pieces cost nothing: their cost went back to stock with them.
 */
export function marginOf(parts: MarginParts): Decimal {
  return parts.paid.minus(parts.purchaseCost).minus(parts.providerFees).minus(parts.labelCost).minus(parts.refunds);
}

/** Refunds giving money back, with their fees, per order of the `where`. */
export async function refundsPerOrder(db: Db, where: SQL) {
  return db
    .select({
      orderId: refund.orderId,
      month: shopMonth(order.soldAt),
      shop: orderDetail.shop,
      amount: sql<string>`sum(${refund.amount})`.mapWith((value: string) => new Decimal(value)),
      providerFees: sql<string>`coalesce(sum(${refund.providerFees}), 0)`.mapWith((value: string) => new Decimal(value)),
    })
    .from(refund)
    .innerJoin(order, eq(order.id, refund.orderId))
    .innerJoin(orderDetail, eq(orderDetail.orderId, order.id))
    .where(and(refundGivingBack, where))
    .groupBy(refund.orderId, order.soldAt, orderDetail.shop);
}

/** `orderMargin` of the order with this number, for its page; NOT_FOUND for an unknown number. */
export async function orderMarginByNumber(db: Db, orderNumber: string): Promise<OrderMargin> {
  const [row] = await db.select({ id: order.id }).from(order).where(eq(order.orderNumber, orderNumber));
  if (!row) throw new AppError("NOT_FOUND", `We cannot find order ${orderNumber}.`);
  return orderMargin(db, row.id);
}

/**
 * The margin of one order: per line the recorded cost of the pieces the customer kept, and the order's charges. An
 * order that was never paid, or was cancelled, sold nothing: its `margin` is null and its lines cost nothing.
 */
export async function orderMargin(db: Db, orderId: number): Promise<OrderMargin> {
  const [row] = await selectOrderWithDetails(db).where(eq(order.id, orderId)).limit(1);
  if (!row) throw new AppError("NOT_FOUND", `Order ${orderId} does not exist.`);
  const { order: head, detail, payment } = row;
  const [lines, [refunds]] = await Promise.all([readOrderLines(db, orderId), refundsPerOrder(db, eq(refund.orderId, orderId))]);

  const sold = head.soldAt !== null && (paidOrderStatuses as readonly string[]).includes(head.status);
  // An unpaid order's lines hold pieces and their cost too, but only a sale counts: until then they cost nothing here.
  const costs = sold ? await lineCosts(db, lines.map((line) => line.itemId)) : new Map<number, LineCost>();
  const costed = lines.map((line) => ({ line, cost: costs.get(line.itemId) }));
  const totals = storedOrderTotals(lines, payment);
  const parts = {
    paid: totals.total,
    purchaseCost: sum(costed.map(({ cost }) => cost?.costEuro ?? ZERO)),
    providerFees: (payment.providerFees ?? ZERO).plus(refunds?.providerFees ?? ZERO),
    labelCost: detail.labelCost ?? ZERO,
    refunds: refunds?.amount ?? ZERO,
  };
  return {
    orderId: head.id,
    orderNumber: head.orderNumber,
    status: head.status,
    shop: detail.shop,
    soldAt: head.soldAt,
    sold,
    totals,
    ...parts,
    purchaseCostPhp: sum(costed.map(({ cost }) => cost?.costPhp ?? ZERO)),
    unknownCostPieces: costed.reduce((pieces, { cost }) => pieces + (cost?.unknownCostPieces ?? 0), 0),
    restockedPieces: costed.reduce((pieces, { cost }) => pieces + (cost?.restockedPieces ?? 0), 0),
    margin: sold ? marginOf(parts) : null,
    lines: costed.map(
      ({ line, cost }): OrderMarginLine => ({
        ...orderLineOf(line),
        paid: line.totalPrice,
        restockedPieces: cost?.restockedPieces ?? 0,
        purchaseCost: cost?.costEuro ?? ZERO,
        purchaseCostPhp: cost?.costPhp ?? ZERO,
        unknownCostPieces: cost?.unknownCostPieces ?? 0,
      }),
    ),
  };
}
