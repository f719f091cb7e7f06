import "server-only";
import { Decimal } from "decimal.js";
import { sql } from "drizzle-orm";
import { moneyBackRefundStatuses, type Shop } from "@/lib/enums";
import { SHOP_TIME_ZONE, shopWallTime, wallTimeDay } from "@/lib/shop-clock";
import type { Db } from "@/server/db/client";
import { rawRows } from "@/server/db/raw-rows";
import { paidOrderStatuses } from "@/server/orders/order-machine";
import { marginOf, ZERO } from "./order-margin";
import type { MonthlyMargin } from "./schemas";

/*
 * The dashboard's figures, read from the sales rollups (db/schema/sales.ts, written by orders/sales-rollup.ts with
 * every change of an order): a few rows per day, whatever the number of orders. The formula is order-margin.ts's.
 */

/** A day's sales as `sales_day` adds them up: the orders paid that shop-time day and not cancelled. */
export type DaySales = { day: string; orders: number; revenue: Decimal; purchaseCost: Decimal; unknownCostPieces: number };

/** The sales of every shop-time day from `from` to `to` (YYYY-MM-DD, both included) that sold something. */
export async function salesPerDay(db: Db, from: string, to: string): Promise<DaySales[]> {
  const rows = await rawRows<{ day: string; orders: number; revenue: string; purchaseCost: string; unknownCostPieces: number }>(
    db,
    sql`select to_char(day, 'YYYY-MM-DD') as "day", sum(orders)::int as "orders", sum(revenue) as "revenue", sum(cost_euro) as "purchaseCost",
          sum(unknown_cost_pieces)::int as "unknownCostPieces"
        from sales_day where day between ${from}::date and ${to}::date group by day`,
  );
  return rows.map((row) => ({ ...row, revenue: new Decimal(row.revenue), purchaseCost: new Decimal(row.purchaseCost) }));
}

const list = (values: readonly string[]) => sql.raw(values.map((value) => `'${value}'`).join(", "));

/**
 * Refunds given (money gone back or on its way) on orders that count as sales, not cancelled ones, per shop-time day
 * they were given, from the start of the day `from` up to `to` (exclusive). Read from the refunds themselves: the
 * rollups count a refund on the day its order was paid.
 */
export async function refundsGivenPerDay(db: Db, from: string, to: Date): Promise<{ day: string; count: number; amount: Decimal }[]> {
  const rows = await rawRows<{ day: string; count: number; amount: string }>(
    db,
    sql`select to_char(r.created_at at time zone ${SHOP_TIME_ZONE}, 'YYYY-MM-DD') as "day", count(*)::int as "count", sum(r.amount) as "amount"
        from refund r join "order" o on o.id = r.order_id
        where r.status in (${list(moneyBackRefundStatuses)}) and o.status in (${list(paidOrderStatuses)})
          and r.created_at >= (${from}::date::timestamp at time zone ${SHOP_TIME_ZONE}) and r.created_at < ${to.toISOString()}::timestamptz
        group by 1`,
  );
  return rows.map((row) => ({ ...row, amount: new Decimal(row.amount) }));
}

const two = (value: number) => String(value).padStart(2, "0");

/** The month `monthsBack` months before the month of `now` (shop time), "2026-03". */
function monthBefore(now: Date, monthsBack: number): string {
  const wall = shopWallTime(now);
  const index = wall.year * 12 + (wall.month - 1) - monthsBack;
  return `${Math.floor(index / 12)}-${two((index % 12) + 1)}`;
}

const shops: Shop[] = ["WEBSHOP", "EBAY"];

/**
 * Margin per month (shop time) and shop for the last `months` months, the current one included, oldest first; every
 * month and shop has a row, empty ones too (the web shop's holds its manual orders and counter sales). An order counts
 * in the month it was paid, with its refunds whenever they were given.
 */
export async function monthlyMargins(db: Db, options: { months: number; now?: Date }): Promise<MonthlyMargin[]> {
  const now = options.now ?? new Date();
  const first = monthBefore(now, options.months - 1);
  const sums = await rawRows<Record<"month" | "shop" | "revenue" | "shipping" | "purchaseCost" | "purchaseCostPhp" | "providerFees" | "labelCost" | "refunds", string> & { orders: number; unknownCostPieces: number }>(
    db,
    sql`select to_char(day, 'YYYY-MM') as "month", case when channel = 'EBAY' then 'EBAY' else 'WEBSHOP' end as "shop",
          sum(orders)::int as "orders", sum(revenue) as "revenue", sum(shipping) as "shipping", sum(cost_euro) as "purchaseCost",
          sum(cost_php) as "purchaseCostPhp", sum(unknown_cost_pieces)::int as "unknownCostPieces", sum(provider_fees) as "providerFees",
          sum(label_cost) as "labelCost", sum(refunds) as "refunds"
        from sales_day where day between ${`${first}-01`}::date and ${wallTimeDay(shopWallTime(now))}::date group by 1, 2`,
  );
  const found = new Map(sums.map((row) => [`${row.month} ${row.shop}`, row]));
  const rows: MonthlyMargin[] = [];
  for (let back = options.months - 1; back >= 0; back--) {
    const month = monthBefore(now, back);
    for (const shop of shops) {
      const sum = found.get(`${month} ${shop}`);
      const amount = (value: string | undefined) => (value === undefined ? ZERO : new Decimal(value));
      const row = {
        month,
        shop,
        orders: sum?.orders ?? 0,
        revenue: amount(sum?.revenue),
        shipping: amount(sum?.shipping),
        purchaseCost: amount(sum?.purchaseCost),
        purchaseCostPhp: amount(sum?.purchaseCostPhp),
        unknownCostPieces: sum?.unknownCostPieces ?? 0,
        providerFees: amount(sum?.providerFees),
        labelCost: amount(sum?.labelCost),
        refunds: amount(sum?.refunds),
      };
      rows.push({ ...row, margin: marginOf({ ...row, paid: row.revenue.plus(row.shipping) }) });
    }
  }
  return rows;
}
