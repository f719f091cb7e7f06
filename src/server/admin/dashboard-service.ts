import "server-only";
import { Decimal } from "decimal.js";
import { and, asc, count, eq, inArray, lte, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { box, order, product, productDescription, purchaseRecord } from "@/server/db/schema";
import { latestUnreadProblems } from "@/server/logbook/service";
import { monthlyMargins, refundsGiven } from "@/server/margins/monthly-margins";
import { costedSalesIn, type CostedSale } from "@/server/margins/purchase-cost";
import { LOW_STOCK } from "@/server/stock/schemas";
import { incomingPieces } from "@/server/stock/service";
import { dashboardMarginsInput, type Dashboard, type DashboardDay, type DashboardMargins, type DashboardMarginsInput, type DashboardPeriod } from "./schemas";

const DAY = 86_400_000;
const WAITING_STATUSES = ["PENDING", "PAID_READY_TO_SHIP", "PAID_FUTURE_SHIPMENT", "PROCESSED"] as const;

const decimal = (value: string | null) => new Decimal(value ?? 0);

function startOfDay(date: Date): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate());
}

function localDate(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/**
 * A period's sales from the costed lines of the orders paid in it (src/server/margins): counted when paid (`soldAt`),
 * cancelled orders never, the pieces costed first bought, first sold. Revenue is what customers paid for items after
 * every discount: `orderItem.totalPrice` already is that amount, so no discount is taken off again. Shipping is not
 * revenue here, and refunds are shown apart.
 */
function periodSales(sales: readonly CostedSale[], since: Date) {
  const inPeriod = sales.filter((sale) => sale.soldAt >= since);
  const total = (amount: (sale: CostedSale) => Decimal) => inPeriod.reduce((sum, sale) => sum.plus(amount(sale)), new Decimal(0));
  return {
    orders: new Set(inPeriod.map((sale) => sale.orderId)).size,
    revenue: total((sale) => sale.totalPrice),
    purchaseCost: total((sale) => sale.cost?.costEuro ?? new Decimal(0)),
    piecesWithoutCost: inPeriod.reduce((pieces, sale) => pieces + (sale.cost?.unknownCostPieces ?? 0), 0),
  };
}

export async function getDashboard(db: Db, readerId: string, now = new Date()): Promise<Dashboard> {
  const today = startOfDay(now);
  const windows: { key: DashboardPeriod["key"]; label: string; since: Date }[] = [
    { key: "today", label: "Today", since: today },
    { key: "7d", label: "Last 7 days", since: new Date(today.getTime() - 6 * DAY) },
    { key: "30d", label: "Last 30 days", since: new Date(today.getTime() - 29 * DAY) },
  ];
  const firstDay = windows[2]!.since;

  const averageCosts = db
    .select({
      productId: purchaseRecord.productId,
      unitCost: sql<string>`sum(${purchaseRecord.purchaseCostEuro} * ${purchaseRecord.purchasedStock}) / nullif(sum(${purchaseRecord.purchasedStock}), 0)`.as(
        "unit_cost",
      ),
    })
    .from(purchaseRecord)
    .groupBy(purchaseRecord.productId)
    .as("average_costs");

  // Up to and including this moment: an order paid right now is in today's figures.
  const upToNow = new Date(now.getTime() + 1);
  const [sales, refunds, waiting, lowStock, problems, [stock], [boxes]] = await Promise.all([
    costedSalesIn(db, { from: firstDay, to: upToNow }),
    Promise.all(windows.map((window) => refundsGiven(db, { from: window.since, to: upToNow }))),
    db.select({ status: order.status, value: count() }).from(order).where(inArray(order.status, [...WAITING_STATUSES])).groupBy(order.status),
    db
      .select({
        id: product.id,
        name: product.name,
        stock: product.stock,
        itemType: productDescription.itemType,
        incoming: incomingPieces,
      })
      .from(product)
      .leftJoin(productDescription, eq(productDescription.productId, product.id))
      .where(and(eq(product.wsStatus, "ONLINE"), lte(product.stock, LOW_STOCK)))
      .orderBy(asc(product.stock), sql`${product.updatedAt} desc`)
      .limit(8),
    latestUnreadProblems(db, readerId),
    db
      .select({
        productsOnline: sql<number>`count(*) filter (where ${product.wsStatus} = 'ONLINE')`.mapWith(Number),
        soldOut: sql<number>`count(*) filter (where ${product.wsStatus} = 'ONLINE' and ${product.stock} = 0)`.mapWith(Number),
        piecesInStock: sql<number>`coalesce(sum(${product.stock}), 0)`.mapWith(Number),
        stockValue: sql<string>`coalesce(sum(${product.stock} * ${averageCosts.unitCost}), 0)`,
      })
      .from(product)
      .leftJoin(averageCosts, eq(averageCosts.productId, product.id)),
    db.select({ value: count() }).from(box).where(eq(box.status, "SHIPPED")),
  ]);

  const periods: DashboardPeriod[] = windows.map((window, index) => {
    const row = periodSales(sales, window.since);
    const refunded = refunds[index]!;
    const revenue = row.revenue.toDecimalPlaces(2);
    const purchaseCost = row.purchaseCost.toDecimalPlaces(2);
    const grossMargin = revenue.minus(purchaseCost);
    return {
      key: window.key,
      label: window.label,
      orders: row.orders,
      revenue,
      refunds: refunded.count,
      refunded: refunded.amount,
      revenueAfterRefunds: revenue.minus(refunded.amount),
      purchaseCost,
      grossMargin,
      marginRate: revenue.isZero() ? null : grossMargin.dividedBy(revenue).toDecimalPlaces(4),
      piecesWithoutCost: row.piecesWithoutCost,
    };
  });

  const byDay = new Map<string, { revenue: Decimal; orders: Set<number> }>();
  for (const sale of sales) {
    const date = localDate(sale.soldAt);
    const day = byDay.get(date) ?? { revenue: new Decimal(0), orders: new Set<number>() };
    day.revenue = day.revenue.plus(sale.totalPrice);
    day.orders.add(sale.orderId);
    byDay.set(date, day);
  }
  const days: DashboardDay[] = Array.from({ length: 30 }, (_, index) => {
    const date = localDate(new Date(firstDay.getFullYear(), firstDay.getMonth(), firstDay.getDate() + index));
    const day = byDay.get(date);
    return { date, revenue: (day?.revenue ?? new Decimal(0)).toDecimalPlaces(2), orders: day?.orders.size ?? 0 };
  });

  return {
    periods,
    days,
    waiting: WAITING_STATUSES.map((status) => ({ status, count: waiting.find((row) => row.status === status)?.value ?? 0 })),
    lowStock,
    problems,
    stock: {
      productsOnline: stock?.productsOnline ?? 0,
      soldOut: stock?.soldOut ?? 0,
      piecesInStock: stock?.piecesInStock ?? 0,
      stockValue: decimal(stock?.stockValue ?? null).toDecimalPlaces(2),
      boxesOnTheWay: boxes?.value ?? 0,
    },
  };
}


/**
 * Margin per month and channel (web shop, eBay) for the dashboard's table: the last `months` months, this one
 * included. Apart from `getDashboard`, since it costs the pieces of every order in those months.
 */
export async function getDashboardMargins(db: Db, rawInput: DashboardMarginsInput, now = new Date()): Promise<DashboardMargins> {
  const input = dashboardMarginsInput.parse(rawInput);
  return { months: await monthlyMargins(db, { months: input.months, now }) };
}
