import "server-only";
import type { Db } from "@/server/db/client";
import { marginsPerChannel } from "@/server/margins/monthly-margins";
import type { SalesReport, SalesReportInput } from "./schemas";

/**
 * Sales and margin per shop-time month and channel (web shop, eBay, manual), the current month included, oldest
 * first, every month and channel with a row: the margins' own figures per channel (`marginsPerChannel`, read from the
 * day rollup `sales_day`, a few hundred rows a month whatever the number of orders).
 */
export async function salesByMonth(db: Db, input: Required<SalesReportInput>, now = new Date()): Promise<SalesReport> {
  return { months: await marginsPerChannel(db, { months: input.months, now }) };
}
