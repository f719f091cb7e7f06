import "server-only";
import { and, asc, eq, gte, lte, notExists, sql } from "drizzle-orm";
import { dutchPublicHoliday, dutchPublicHolidaysBetween } from "@/lib/dutch-holidays";
import { formatShippingDay } from "@/lib/labels";
import type { Db } from "@/server/db/client";
import { shippingCalendar, shopClosingDay } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { logChange } from "@/server/logbook/service";
import type { ClosedDay } from "./schemas";

/**
 * The days nothing ships though the calendar may hold them: the Dutch public holidays (`lib/dutch-holidays.ts`,
 * which PostNL keeps) and the closing days staff add. Every read of the shipping days goes through
 * `openShippingDays`, so a closed day is never planned; the calendar's rows are left alone, so a shipping day
 * staff planned comes back when its closing day is removed.
 */

// The most public holidays that can fall within a dozen shipping days in a row (Christmas, Boxing Day, New Year).
const HOLIDAY_ALLOWANCE = 8;

/** The shipping days from `from` (to `to`, or the first `limit` of them), without public holidays and closing days. */
export async function openShippingDays(db: Db, { from, to, limit }: { from: string; to?: string; limit?: number }): Promise<string[]> {
  const query = db
    .select({ date: shippingCalendar.shortDate })
    .from(shippingCalendar)
    .where(
      and(
        gte(shippingCalendar.shortDate, from),
        to === undefined ? undefined : lte(shippingCalendar.shortDate, to),
        notExists(db.select({ one: sql`1` }).from(shopClosingDay).where(eq(shopClosingDay.shortDate, shippingCalendar.shortDate))),
      ),
    )
    .orderBy(asc(shippingCalendar.shortDate));
  const rows = limit === undefined ? await query : await query.limit(limit + HOLIDAY_ALLOWANCE);
  const open = rows.map((row) => row.date).filter((day) => dutchPublicHoliday(day) === null);
  return limit === undefined ? open : open.slice(0, limit);
}

/** The public holidays and closing days from one day to another, in date order. */
export async function closedDaysBetween(db: Db, from: string, to: string): Promise<ClosedDay[]> {
  const closing = await db
    .select({ date: shopClosingDay.shortDate, reason: shopClosingDay.reason })
    .from(shopClosingDay)
    .where(and(gte(shopClosingDay.shortDate, from), lte(shopClosingDay.shortDate, to)));
  return [
    ...dutchPublicHolidaysBetween(from, to).map((holiday): ClosedDay => ({ date: holiday.date, reason: holiday.name, kind: "holiday" })),
    ...closing.map((day): ClosedDay => ({ ...day, kind: "closing" })),
  ].sort((a, b) => a.date.localeCompare(b.date));
}

/** Why nothing ships on a day, or null when it may: a public holiday's name, or a closing day's reason. */
export async function whyClosed(db: Db, day: string): Promise<ClosedDay | null> {
  const holiday = dutchPublicHoliday(day);
  if (holiday) return { date: day, reason: holiday, kind: "holiday" };
  const [closing] = await db.select({ reason: shopClosingDay.reason }).from(shopClosingDay).where(eq(shopClosingDay.shortDate, day));
  return closing ? { date: day, reason: closing.reason, kind: "closing" } : null;
}

/** Refuses (BAD_REQUEST) to plan a shipping day on a closed day, saying why it is closed. */
export async function refuseClosedShippingDay(db: Db, day: string): Promise<void> {
  const closed = await whyClosed(db, day);
  if (!closed) return;
  throw new AppError(
    "BAD_REQUEST",
    closed.kind === "holiday"
      ? `${formatShippingDay(day)} is ${closed.reason}: PostNL does not collect, so nothing can ship that day.`
      : `The shop is closed on ${formatShippingDay(day)} (${closed.reason}); remove the closing day first.`,
  );
}

/**
 * Adds a closing day (logged) or removes it; false when it changed nothing. A public holiday is closed already and
 * cannot be added. Re-planning the orders that were to leave that day is the caller's (`orders/shipment-replan.ts`).
 */
export async function changeClosingDay(
  tx: Db,
  change: { date: string; what: "added"; reason: string } | { date: string; what: "removed" },
  userId: string | null,
): Promise<boolean> {
  const { date } = change;
  if (change.what === "added") {
    const holiday = dutchPublicHoliday(date);
    if (holiday) throw new AppError("BAD_REQUEST", `${formatShippingDay(date)} is ${holiday}: the shop is closed that day already.`);
    const added = await tx.insert(shopClosingDay).values({ shortDate: date, reason: change.reason }).onConflictDoNothing().returning({ id: shopClosingDay.id });
    if (added.length === 0) return false;
    await logChange(tx, {
      userId,
      eventType: "ORDER",
      previousState: { closingDay: null },
      newState: { closingDay: date, reason: change.reason },
      description: `Shipping calendar: the shop is closed on ${date} (${change.reason}); nothing ships that day`,
    });
    return true;
  }
  const [removed] = await tx.delete(shopClosingDay).where(eq(shopClosingDay.shortDate, date)).returning({ reason: shopClosingDay.reason });
  if (!removed) return false;
  await logChange(tx, {
    userId,
    eventType: "ORDER",
    previousState: { closingDay: date, reason: removed.reason },
    newState: { closingDay: null },
    description: `Shipping calendar: ${date} is no longer a closing day (was: ${removed.reason})`,
  });
  return true;
}
