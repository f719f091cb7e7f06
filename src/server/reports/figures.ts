import "server-only";
import { Decimal } from "decimal.js";
import { sql, type AnyColumn, type SQL } from "drizzle-orm";
import { shopWallTime } from "@/lib/shop-clock";

// What the reports' queries share: sums read as Decimal or whole numbers, and the shop-time months they span.

/** The sum of a money column or expression, 0 over no rows, as Decimal. */
export const moneySum = (column: SQL | AnyColumn) => sql<string>`coalesce(sum(${column}), 0)`.mapWith((value: string) => new Decimal(value));

/** The sum of a whole-number column or expression, 0 over no rows. */
export const countSum = (column: SQL | AnyColumn) => sql<number>`coalesce(sum(${column}), 0)`.mapWith(Number);

export const ZERO = new Decimal(0);

const two = (value: number) => String(value).padStart(2, "0");

/** The `count` shop-time months up to the one `now` falls in, oldest first, as "YYYY-MM". */
export function monthsUpTo(now: Date, count: number): string[] {
  const { year, month } = shopWallTime(now);
  const months: string[] = [];
  for (let back = count - 1; back >= 0; back--) {
    const index = year * 12 + (month - 1) - back;
    months.push(`${Math.floor(index / 12)}-${two((index % 12) + 1)}`);
  }
  return months;
}

/** The shop-time month `now` falls in, "YYYY-MM". */
export function monthOf(now: Date): string {
  return monthsUpTo(now, 1)[0]!;
}

/** The first day after a month, "YYYY-MM-DD". */
export function dayAfterMonth(month: string): string {
  const [year, monthNumber] = month.split("-").map(Number) as [number, number];
  return monthNumber === 12 ? `${year + 1}-01-01` : `${year}-${two(monthNumber + 1)}-01`;
}

/** sold / received, to four places; null when nothing was received. */
export function rateOf(part: number, whole: number): Decimal | null {
  return whole === 0 ? null : new Decimal(part).dividedBy(whole).toDecimalPlaces(4);
}
