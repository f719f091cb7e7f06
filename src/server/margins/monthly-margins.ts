import "server-only";
import { Decimal } from "decimal.js";
import { sql } from "drizzle-orm";
import { moneyBackRefundStatuses, salesChannels, type Shop } from "@/lib/enums";
import { SHOP_TIME_ZONE, shopMonthsUpTo, shopWallTime, wallTimeDay } from "@/lib/shop-clock";
import type { Db } from "@/server/db/client";
import { rawRows } from "@/server/db/raw-rows";
import { paidOrderStatuses } from "@/server/orders/order-machine";
import { marginOf, ZERO } from "./order-margin";
import type { ChannelMonthMargin, MonthlyMargin } from "./schemas";

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

type Sums = Omit<ChannelMonthMargin, "month" | "channel" | "margin">;

const noSales = (): Sums => ({
  orders: 0,
  pieces: 0,
  revenue: ZERO,
  shipping: ZERO,
  purchaseCost: ZERO,
  purchaseCostPhp: ZERO,
  unknownCostPieces: 0,
  providerFees: ZERO,
  labelCost: ZERO,
  refunds: ZERO,
});

const withMargin = <T extends Omit<Sums, "pieces">>(sums: T): T & { margin: Decimal } => ({ ...sums, margin: marginOf({ ...sums, paid: sums.revenue.plus(sums.shipping) }) });

/**
 * Margin per month (shop time) and sales channel for the last `months` months, the current one included, oldest
 * first; every month and channel has a row, empty ones too. An order counts in the month it was paid, with its
 * refunds whenever they were given. The owner's sales report shows it as it is, the dashboard per shop
 * (`monthlyMargins`).
 */
export async function marginsPerChannel(db: Db, options: { months: number; now?: Date }): Promise<ChannelMonthMargin[]> {
  const now = options.now ?? new Date();
  const months = shopMonthsUpTo(now, options.months);
  const sums = await rawRows<Record<"month" | "channel" | "revenue" | "shipping" | "purchaseCost" | "purchaseCostPhp" | "providerFees" | "labelCost" | "refunds", string> & { orders: number; pieces: number; unknownCostPieces: number }>(
    db,
    sql`select to_char(day, 'YYYY-MM') as "month", channel as "channel",
          sum(orders)::int as "orders", sum(pieces)::int as "pieces", sum(revenue) as "revenue", sum(shipping) as "shipping", sum(cost_euro) as "purchaseCost",
          sum(cost_php) as "purchaseCostPhp", sum(unknown_cost_pieces)::int as "unknownCostPieces", sum(provider_fees) as "providerFees",
          sum(label_cost) as "labelCost", sum(refunds) as "refunds"
        from sales_day where day between ${`${months[0]}-01`}::date and ${wallTimeDay(shopWallTime(now))}::date group by 1, 2`,
  );
  const found = new Map(sums.map((row) => [`${row.month} ${row.channel}`, row]));
  return months.flatMap((month) =>
    salesChannels.map((channel): ChannelMonthMargin => {
      const sum = found.get(`${month} ${channel}`);
      if (!sum) return { month, channel, ...withMargin(noSales()) };
      const amount = (value: string) => new Decimal(value);
      return {
        month,
        channel,
        ...withMargin({
          orders: sum.orders,
          pieces: sum.pieces,
          revenue: amount(sum.revenue),
          shipping: amount(sum.shipping),
          purchaseCost: amount(sum.purchaseCost),
          purchaseCostPhp: amount(sum.purchaseCostPhp),
          unknownCostPieces: sum.unknownCostPieces,
          providerFees: amount(sum.providerFees),
          labelCost: amount(sum.labelCost),
          refunds: amount(sum.refunds),
        }),
      };
    }),
  );
}

/** Two channels' sums as one. */
const added = (a: Sums, b: Sums): Sums => ({
  orders: a.orders + b.orders,
  pieces: a.pieces + b.pieces,
  revenue: a.revenue.plus(b.revenue),
  shipping: a.shipping.plus(b.shipping),
  purchaseCost: a.purchaseCost.plus(b.purchaseCost),
  purchaseCostPhp: a.purchaseCostPhp.plus(b.purchaseCostPhp),
  unknownCostPieces: a.unknownCostPieces + b.unknownCostPieces,
  providerFees: a.providerFees.plus(b.providerFees),
  labelCost: a.labelCost.plus(b.labelCost),
  refunds: a.refunds.plus(b.refunds),
});

/**
 * `marginsPerChannel` per month and shop, as the dashboard shows it: every month and shop has a row (every channel
 * has one), the web shop's holding its manual orders and counter sales.
 */
export async function monthlyMargins(db: Db, options: { months: number; now?: Date }): Promise<MonthlyMargin[]> {
  const rows = new Map<string, { month: string; shop: Shop; sums: Sums }>();
  for (const row of await marginsPerChannel(db, options)) {
    const shop: Shop = row.channel === "EBAY" ? "EBAY" : "WEBSHOP";
    const key = `${row.month} ${shop}`;
    rows.set(key, { month: row.month, shop, sums: added(rows.get(key)?.sums ?? noSales(), row) });
  }
  return [...rows.values()].map(({ month, shop, sums: { pieces: _pieces, ...sums } }) => ({ month, shop, ...withMargin(sums) }));
}
