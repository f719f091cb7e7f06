import "server-only";
import { Decimal } from "decimal.js";
import { shopMonthsUpTo } from "@/lib/shop-clock";

// What the reports share: the month a CSV is named by, and a rate.

/** The shop-time month `now` falls in, "YYYY-MM". */
export function monthOf(now: Date): string {
  return shopMonthsUpTo(now, 1)[0]!;
}

/** sold / received, to four places; null when nothing was received. */
export function rateOf(part: number, whole: number): Decimal | null {
  return whole === 0 ? null : new Decimal(part).dividedBy(whole).toDecimalPlaces(4);
}
