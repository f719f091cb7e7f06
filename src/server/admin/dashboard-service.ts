import "server-only";
import { Decimal } from "decimal.js";
import { and, asc, count, eq, gte, inArray, lte, ne, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { box, order, orderItem, product, productDescription, purchaseRecord } from "@/server/db/schema";
import { latestUnreadProblems } from "@/server/logbook/service";
import { LOW_STOCK } from "@/server/stock/schemas";
import { incomingPieces } from "@/server/stock/service";
import type { Dashboard, DashboardDay, DashboardPeriod } from "./schemas";

const DAY = 86_400_000;
const WAITING_STATUSES = ["PENDING", "PAID_READY_TO_SHIP", "PAID_FUTURE_SHIPMENT", "PROCESSED"] as const;

/** Average purchase cost of one piece per product, weighted by the pieces bought; the basis of gross margin. */
const unitCost = sql`(
  select sum(${purchaseRecord.purchaseCostEuro} * ${purchaseRecord.purchasedStock}) / nullif(sum(${purchaseRecord.purchasedStock}), 0)
  from ${purchaseRecord} where ${purchaseRecord.productId} = ${orderItem.productId})`;

const decimal = (value: string | null) => new Decimal(value ?? 0);

function startOfDay(date: Date): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate());
}

function localDate(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/**
 * What customers paid for items, after every discount: `orderItem.totalPrice` already is that amount, so no discount
 * is taken off again. Shipping is not revenue here.
 */
const itemRevenue = sql<string>`coalesce(sum(${orderItem.totalPrice}), 0)`;

/** Sales are counted when paid (`soldAt`), cancelled orders never. */
async function salesSince(db: Db, since: Date) {
  const [row] = await db
    .select({
      orders: sql<number>`count(distinct ${order.id})`.mapWith(Number),
      revenue: itemRevenue,
      purchaseCost: sql<string>`coalesce(sum(${orderItem.quantity} * coalesce(${unitCost}, 0)), 0)`,
      piecesWithoutCost: sql<number>`coalesce(sum(case when ${unitCost} is null then ${orderItem.quantity} else 0 end), 0)`.mapWith(Number),
    })
    .from(order)
    .innerJoin(orderItem, eq(orderItem.orderId, order.id))
    .where(and(gte(order.soldAt, since), ne(order.status, "CANCELLED")));
  return row!;
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

  const [sales, daily, waiting, lowStock, problems, [stock], [boxes]] = await Promise.all([
    Promise.all(windows.map((window) => salesSince(db, window.since))),
    db
      .select({
        day: sql<string>`to_char(date_trunc('day', ${order.soldAt}), 'YYYY-MM-DD')`,
        orders: sql<number>`count(distinct ${order.id})`.mapWith(Number),
        revenue: itemRevenue,
      })
      .from(order)
      .innerJoin(orderItem, eq(orderItem.orderId, order.id))
      .where(and(gte(order.soldAt, firstDay), ne(order.status, "CANCELLED")))
      .groupBy(sql`1`),
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
    const row = sales[index]!;
    const revenue = decimal(row.revenue).toDecimalPlaces(2);
    const purchaseCost = decimal(row.purchaseCost).toDecimalPlaces(2);
    const grossMargin = revenue.minus(purchaseCost);
    return {
      key: window.key,
      label: window.label,
      orders: row.orders,
      revenue,
      purchaseCost,
      grossMargin,
      marginRate: revenue.isZero() ? null : grossMargin.dividedBy(revenue).toDecimalPlaces(4),
      piecesWithoutCost: row.piecesWithoutCost,
    };
  });

  const byDay = new Map(daily.map((row) => [row.day, row]));
  const days: DashboardDay[] = Array.from({ length: 30 }, (_, index) => {
    const date = localDate(new Date(firstDay.getFullYear(), firstDay.getMonth(), firstDay.getDate() + index));
    const row = byDay.get(date);
    return { date, revenue: decimal(row?.revenue ?? null).toDecimalPlaces(2), orders: row?.orders ?? 0 };
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

