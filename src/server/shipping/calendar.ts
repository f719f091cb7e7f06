import "server-only";
import { and, asc, between, count, eq, inArray, sql } from "drizzle-orm";
import type { OrderStatus } from "@/lib/enums";
import type { Db } from "@/server/db/client";
import { order, orderDetail, shippingCalendar } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { logChange } from "@/server/logbook/service";
import { closedDaysBetween, openShippingDays, refuseClosedShippingDay } from "./closed-days";
import { shippingCalendarRangeInput, shippingDayInput, type ShippingCalendarRangeInput, type ShippingCalendarView, type ShippingDayInput } from "./schemas";
import { nextShippingDay, shopDateAndHour } from "./service";

/**
 * The shipping calendar: the days parcels go out. Staff add and remove days; the orders waiting to ship follow it,
 * re-planned by orders (`orders/shipment-replan.ts`) in the transaction of every change and every hour. Public
 * holidays and closing days are never shipping days (`closed-days.ts`), whatever the calendar holds.
 */

// Any fixed number: calendar changes and re-plans take turns, so each plans against the calendar the last one left.
const CALENDAR_LOCK = 80_412_012;

/** The orders that wait for a shipping day: not yet packed, shipped or cancelled. */
export const waitingStatuses = ["PENDING", "PAID_READY_TO_SHIP", "PAID_FUTURE_SHIPMENT"] as const satisfies readonly OrderStatus[];

/** Orders planned on a calendar day that are not yet on their way; packed orders count, they still leave that day. */
const plannedStatuses = [...waitingStatuses, "PROCESSED"] as const satisfies readonly OrderStatus[];

/** How many upcoming shipping days the calendar page lists beside the month. */
const UPCOMING_DAYS = 12;

/** The shipping days in a range, its closed days, the next ones from today, and how many orders are planned on each day. */
export async function listShippingDays(db: Db, rawInput: ShippingCalendarRangeInput, now: Date = new Date()): Promise<ShippingCalendarView> {
  const { from, to } = shippingCalendarRangeInput.parse(rawInput);
  const today = shopDateAndHour(now).date;
  const [days, closed, upcomingDays, planned] = await Promise.all([
    openShippingDays(db, { from, to }),
    closedDaysBetween(db, from, to),
    openShippingDays(db, { from: today, limit: UPCOMING_DAYS }),
    db
      .select({ date: orderDetail.estimatedShippingDate, count: count() })
      .from(orderDetail)
      .innerJoin(order, eq(order.id, orderDetail.orderId))
      .where(and(between(orderDetail.estimatedShippingDate, from, to), inArray(order.status, [...plannedStatuses])))
      .groupBy(orderDetail.estimatedShippingDate)
      .orderBy(asc(orderDetail.estimatedShippingDate)),
  ]);
  return {
    from,
    to,
    today,
    nextShippingDay: nextShippingDay(upcomingDays, now),
    days,
    closed,
    upcoming: upcomingDays,
    // The range leaves out orders without a date.
    plannedOrders: planned.map((row) => ({ date: row.date!, count: row.count })),
  };
}

/**
 * The day a change of the calendar names, refused when it lies in the past: only today and later days can change.
 * The change itself (`changeShippingDay`) runs in the caller's transaction, under `lockCalendar`.
 */
export function shippingDayToChange(rawInput: ShippingDayInput, now: Date): string {
  const { date } = shippingDayInput.parse(rawInput);
  if (date < shopDateAndHour(now).date) throw new AppError("BAD_REQUEST", `${date} is in the past; only today and later days can change.`);
  return date;
}

/** Calendar changes and re-plans take turns (until the caller's transaction ends), so each plans against the calendar the last one left. */
export async function lockCalendar(tx: Db): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${CALENDAR_LOCK})`);
}

/**
 * Adds a day to the calendar or removes it, logged; false when it changed nothing (a day added twice, or removed
 * when it was not there). A public holiday or closing day is refused as a shipping day. Re-planning the orders that
 * wait is the caller's (`orders/shipment-replan.ts`).
 */
export async function changeShippingDay(tx: Db, date: string, what: "added" | "removed", userId: string | null): Promise<boolean> {
  if (what === "added") await refuseClosedShippingDay(tx, date);
  const changed =
    what === "added"
      ? (await tx.insert(shippingCalendar).values({ shortDate: date }).onConflictDoNothing().returning({ id: shippingCalendar.id })).length > 0
      : (await tx.delete(shippingCalendar).where(eq(shippingCalendar.shortDate, date)).returning({ id: shippingCalendar.id })).length > 0;
  if (changed) {
    await logChange(tx, {
      userId,
      eventType: "ORDER",
      previousState: { shippingDay: what === "removed" ? date : null },
      newState: { shippingDay: what === "added" ? date : null },
      description: `Shipping calendar: ${date} ${what === "added" ? "added as a shipping day" : "is no longer a shipping day"}`,
    });
  }
  return changed;
}

/** The calendar's shipping days from today on, closed days left out. */
export function calendarFromToday(db: Db, now: Date): Promise<string[]> {
  return openShippingDays(db, { from: shopDateAndHour(now).date });
}
