import "server-only";
import { and, gte, lt, sql } from "drizzle-orm";
import { salesChannels, type SalesChannel } from "@/lib/enums";
import type { Db } from "@/server/db/client";
import { salesDay } from "@/server/db/schema";
import { marginOf } from "@/server/margins/order-margin";
import { countSum, dayAfterMonth, moneySum, monthsUpTo, ZERO } from "./figures";
import type { SalesMonth, SalesReport, SalesReportInput } from "./schemas";

/**
 * Sales and margin per shop-time month and channel (web shop, eBay, manual), the current month included, oldest
 * first; every month and channel has a row, empty ones too. Read from the day rollup (`sales_day`), a few hundred rows
 * a month whatever the number of orders; the margin is the margins' one formula (`marginOf`) over the month's sums.
 */
export async function salesByMonth(db: Db, input: Required<SalesReportInput>, now = new Date()): Promise<SalesReport> {
  const months = monthsUpTo(now, input.months);
  const month = sql<string>`to_char(${salesDay.day}, 'YYYY-MM')`;
  const sums = await db
    .select({
      month,
      channel: salesDay.channel,
      orders: countSum(salesDay.orders),
      pieces: countSum(salesDay.pieces),
      revenue: moneySum(salesDay.revenue),
      shipping: moneySum(salesDay.shipping),
      purchaseCost: moneySum(salesDay.costEuro),
      purchaseCostPhp: moneySum(salesDay.costPhp),
      unknownCostPieces: countSum(salesDay.unknownCostPieces),
      providerFees: moneySum(salesDay.providerFees),
      labelCost: moneySum(salesDay.labelCost),
      refunds: moneySum(salesDay.refunds),
    })
    .from(salesDay)
    .where(and(gte(salesDay.day, `${months[0]}-01`), lt(salesDay.day, dayAfterMonth(months.at(-1)!))))
    .groupBy(sql`1`, salesDay.channel);

  const found = new Map(sums.map((row) => [`${row.month} ${row.channel}`, row]));
  return {
    months: months.flatMap((key) =>
      salesChannels.map((channel: SalesChannel): SalesMonth => {
        const row = found.get(`${key} ${channel}`);
        if (!row) return emptyMonth(key, channel);
        return { ...row, month: key, channel, margin: marginOf({ ...row, paid: row.revenue.plus(row.shipping) }) };
      }),
    ),
  };
}

function emptyMonth(month: string, channel: SalesChannel): SalesMonth {
  return {
    month,
    channel,
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
    margin: ZERO,
  };
}
