import "server-only";
import { Decimal } from "decimal.js";
import { and, count, eq, inArray, sql } from "drizzle-orm";
import { shopWallTime, wallTimeDay } from "@/lib/shop-clock";
import type { Db } from "@/server/db/client";
import { rawRows } from "@/server/db/raw-rows";
import { box, order, product, productDescription } from "@/server/db/schema";
import { latestUnreadProblems } from "@/server/logbook/service";
import { monthlyMargins, refundsGivenPerDay, salesPerDay } from "@/server/margins/monthly-margins";
import { currentHoldings } from "@/server/stock/holdings";
import { LOW_STOCK } from "@/server/stock/schemas";
import { incomingPieces } from "@/server/stock/service";
import { dashboardMarginsInput, type Dashboard, type DashboardDay, type DashboardMargins, type DashboardMarginsInput, type DashboardPeriod } from "./schemas";

const LOW_STOCK_SHOWN = 8;
const WAITING_STATUSES = ["PENDING", "PAID_READY_TO_SHIP", "PAID_FUTURE_SHIPMENT", "PROCESSED"] as const;

const decimal = (value: string | null) => new Decimal(value ?? 0);
const sum = (amounts: Decimal[]) => amounts.reduce((total, amount) => total.plus(amount), new Decimal(0));

/** The shop-time day `days` days after `day` (YYYY-MM-DD). */
function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/**
 * The owner's figures for today, the last 7 and the last 30 days (shop-time days, today included), from the sales
 * rollups (margins/monthly-margins.ts): orders counted on the day they were paid, cancelled ones never. Revenue is
 * what customers paid for items after every discount (`orderItem.totalPrice`); shipping is not revenue here, and
 * refunds are shown apart, on the day they were given.
 */
export async function getDashboard(db: Db, readerId: string, now = new Date()): Promise<Dashboard> {
  const today = wallTimeDay(shopWallTime(now));
  const windows: { key: DashboardPeriod["key"]; label: string; since: string }[] = [
    { key: "today", label: "Today", since: today },
    { key: "7d", label: "Last 7 days", since: addDays(today, -6) },
    { key: "30d", label: "Last 30 days", since: addDays(today, -29) },
  ];
  const firstDay = windows[2]!.since;

  // Up to and including this moment: a refund given right now is in today's figures.
  const upToNow = new Date(now.getTime() + 1);
  const [sales, refunds, waiting, lowStock, problems, [stock], [stockValue], [boxes]] = await Promise.all([
    salesPerDay(db, firstDay, today),
    refundsGivenPerDay(db, firstDay, upToNow),
    db.select({ status: order.status, value: count() }).from(order).where(inArray(order.status, [...WAITING_STATUSES])).groupBy(order.status),
    // The eight lowest first, the most recently changed first among equals: per stock level, each the newest eight
    // through the products' updated_at index (a millisecond), where one query sorted every product low on stock
    // (tens of thousands at 100,000 products).
    Promise.all(
      Array.from({ length: LOW_STOCK + 1 }, (_, level) =>
        db
          .select({ id: product.id, name: product.name, stock: product.stock, itemType: productDescription.itemType, incoming: incomingPieces })
          .from(product)
          .leftJoin(productDescription, eq(productDescription.productId, product.id))
          .where(and(eq(product.wsStatus, "ONLINE"), eq(product.stock, level)))
          .orderBy(sql`${product.updatedAt} desc`)
          .limit(LOW_STOCK_SHOWN),
      ),
    ).then((levels) => levels.flat().slice(0, LOW_STOCK_SHOWN)),
    latestUnreadProblems(db, readerId),
    db
      .select({
        productsOnline: sql<number>`count(*) filter (where ${product.wsStatus} = 'ONLINE')`.mapWith(Number),
        soldOut: sql<number>`count(*) filter (where ${product.wsStatus} = 'ONLINE' and ${product.stock} = 0)`.mapWith(Number),
        piecesInStock: sql<number>`coalesce(sum(${product.stock}), 0)`.mapWith(Number),
      })
      .from(product),
    // What the pieces in stock cost, each at its own purchase's cost as recorded when it came in (pieces of unknown cost
    // count nothing): what the lots hold per category and box, a few hundred rows, where adding up the lots with pieces
    // left took tens of milliseconds at 100,000 products.
    rawRows<{ value: string }>(db, sql`select cost_left_euro::text as value from (${currentHoldings([])}) h`),
    db.select({ value: count() }).from(box).where(eq(box.status, "SHIPPED")),
  ]);

  const periods: DashboardPeriod[] = windows.map((window) => {
    const inPeriod = sales.filter((day) => day.day >= window.since);
    const given = refunds.filter((day) => day.day >= window.since);
    const refunded = sum(given.map((day) => day.amount));
    const revenue = sum(inPeriod.map((day) => day.revenue)).toDecimalPlaces(2);
    const purchaseCost = sum(inPeriod.map((day) => day.purchaseCost)).toDecimalPlaces(2);
    const grossMargin = revenue.minus(purchaseCost);
    return {
      key: window.key,
      label: window.label,
      orders: inPeriod.reduce((orders, day) => orders + day.orders, 0),
      revenue,
      refunds: given.reduce((count, day) => count + day.count, 0),
      refunded,
      revenueAfterRefunds: revenue.minus(refunded),
      purchaseCost,
      grossMargin,
      marginRate: revenue.isZero() ? null : grossMargin.dividedBy(revenue).toDecimalPlaces(4),
      piecesWithoutCost: inPeriod.reduce((pieces, day) => pieces + day.unknownCostPieces, 0),
    };
  });

  const byDay = new Map(sales.map((day) => [day.day, day]));
  const days: DashboardDay[] = Array.from({ length: 30 }, (_, index) => {
    const date = addDays(firstDay, index);
    const day = byDay.get(date);
    return { date, revenue: (day?.revenue ?? new Decimal(0)).toDecimalPlaces(2), orders: day?.orders ?? 0 };
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
      stockValue: decimal(stockValue?.value ?? null).toDecimalPlaces(2),
      boxesOnTheWay: boxes?.value ?? 0,
    },
  };
}

/**
 * Margin per month and channel (web shop, eBay) for the dashboard's table: the last `months` months, this one
 * included, from the sales rollups.
 */
export async function getDashboardMargins(db: Db, rawInput: DashboardMarginsInput, now = new Date()): Promise<DashboardMargins> {
  const input = dashboardMarginsInput.parse(rawInput);
  return { months: await monthlyMargins(db, { months: input.months, now }) };
}
