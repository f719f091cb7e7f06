import "server-only";
import { Decimal } from "decimal.js";
import { and, eq, gte, lt, sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { Shop } from "@/lib/enums";
import { SHOP_TIME_ZONE } from "@/lib/shop-clock";
import type { Db } from "@/server/db/client";
import { rawRows } from "@/server/db/raw-rows";
import { order, orderDetail, paymentDetail, refund } from "@/server/db/schema";
import { marginOf, refundGivingBack, refundsPerOrder } from "./order-margin";
import { costedSalesIn, paidIn, shopMonth, soldOrder, ZERO, type MarginRange } from "./purchase-cost";
import type { MonthlyMargin } from "./schemas";

/*
 * The dashboard's figures: the margin per month (shop time) and channel, and the refunds given in a range. The
 * orders' charges are summed by the database, the pieces' costs come from purchase-cost.ts and the formula from
 * order-margin.ts.
 */
/** Refunds given in the range (money gone back or on its way) on orders that count as sales, not cancelled ones. */
export async function refundsGiven(db: Db, range: MarginRange): Promise<{ count: number; amount: Decimal }> {
  const [row] = await db
    .select({ count: sql<number>`count(*)`.mapWith(Number), amount: sql<string>`coalesce(sum(${refund.amount}), 0)` })
    .from(refund)
    .innerJoin(order, eq(order.id, refund.orderId))
    .where(and(refundGivingBack, soldOrder, gte(refund.createdAt, range.from), lt(refund.createdAt, range.to)));
  return { count: row?.count ?? 0, amount: new Decimal(row?.amount ?? 0) };
}

/** The start of the shop-time month `monthsBack` months before the one `now` falls in, and that month's key. */
async function monthStart(db: Db, now: Date, monthsBack: number): Promise<{ from: Date; month: string }> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const start = sql`date_trunc('month', ${at} at time zone ${SHOP_TIME_ZONE}) - make_interval(months => ${monthsBack}::int)`;
  const [row] = await rawRows<{ from: string | Date; month: string }>(
    db,
    sql`select (${start}) at time zone ${SHOP_TIME_ZONE} as "from", to_char(${start}, 'YYYY-MM') as month`,
  );
  return { from: new Date(row!.from), month: row!.month };
}

function nextMonth(month: string): string {
  const [year, monthNumber] = month.split("-").map(Number) as [number, number];
  return monthNumber === 12 ? `${year + 1}-01` : `${year}-${String(monthNumber + 1).padStart(2, "0")}`;
}

const shops: Shop[] = ["WEBSHOP", "EBAY"];

/**
 * Margin per month (shop time) and channel for the last `months` months, the current one included, oldest first;
 * every month and channel has a row, empty ones too. An order counts in the month it was paid, with its refunds
 * whenever they were given. The orders' charges are summed by the database, the pieces' costs here.
 */
export async function monthlyMargins(db: Db, options: { months: number; now?: Date }): Promise<MonthlyMargin[]> {
  const now = options.now ?? new Date();
  const { from, month: first } = await monthStart(db, now, options.months - 1);
  // Up to and including `now`: an order paid this very moment counts.
  const range = { from, to: new Date(now.getTime() + 1) };
  const money = (column: SQL | AnyColumn) => sql<string>`coalesce(sum(${column}), 0)`.mapWith((value: string) => new Decimal(value));
  const [charges, sales, refunds] = await Promise.all([
    db
      .select({
        month: shopMonth(order.soldAt),
        shop: orderDetail.shop,
        orders: sql<number>`count(*)`.mapWith(Number),
        shipping: money(paymentDetail.shippingTotal),
        providerFees: money(paymentDetail.providerFees),
        labelCost: money(orderDetail.labelCost),
      })
      .from(order)
      .innerJoin(orderDetail, eq(orderDetail.orderId, order.id))
      .innerJoin(paymentDetail, eq(paymentDetail.orderId, order.id))
      .where(paidIn(range))
      .groupBy(sql`1`, orderDetail.shop),
    costedSalesIn(db, range),
    refundsPerOrder(db, paidIn(range)),
  ]);

  const rows = new Map<string, MonthlyMargin>();
  for (let index = 0, month = first; index < options.months; index++, month = nextMonth(month)) {
    for (const shop of shops) {
      rows.set(`${month} ${shop}`, {
        month,
        shop,
        orders: 0,
        revenue: ZERO,
        shipping: ZERO,
        purchaseCost: ZERO,
        purchaseCostPhp: ZERO,
        unknownCostPieces: 0,
        providerFees: ZERO,
        labelCost: ZERO,
        refunds: ZERO,
        margin: ZERO,
      });
    }
  }
  const rowOf = (month: string, shop: Shop) => rows.get(`${month} ${shop}`);
  for (const charge of charges) {
    const row = rowOf(charge.month, charge.shop);
    if (!row) continue;
    Object.assign(row, { orders: charge.orders, shipping: charge.shipping, providerFees: charge.providerFees, labelCost: charge.labelCost });
  }
  for (const sale of sales) {
    const row = rowOf(sale.month, sale.shop);
    if (!row) continue;
    row.revenue = row.revenue.plus(sale.totalPrice);
    if (!sale.cost) continue;
    row.purchaseCost = row.purchaseCost.plus(sale.cost.costEuro);
    row.purchaseCostPhp = row.purchaseCostPhp.plus(sale.cost.costPhp);
    row.unknownCostPieces += sale.cost.unknownCostPieces;
  }
  for (const given of refunds) {
    const row = rowOf(given.month, given.shop);
    if (!row) continue;
    row.refunds = row.refunds.plus(given.amount);
    row.providerFees = row.providerFees.plus(given.providerFees);
  }
  for (const row of rows.values()) row.margin = marginOf({ ...row, paid: row.revenue.plus(row.shipping) });
  return [...rows.values()];
}
