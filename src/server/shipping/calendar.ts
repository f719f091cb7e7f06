import "server-only";
import { and, asc, between, count, eq, gte, inArray, sql } from "drizzle-orm";
import type { OrderStatus } from "@/lib/enums";
import type { Db } from "@/server/db/client";
import { order, orderDetail, shippingCalendar } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { logChange, logOrderChange } from "@/server/logbook/service";
import { selectOrderWithDetails } from "@/server/orders/order-rows";
import { transitionOrder } from "@/server/orders/service";
import {
  shippingCalendarRangeInput,
  shippingDayInput,
  type ShipmentReplan,
  type ShippingCalendarRangeInput,
  type ShippingCalendarView,
  type ShippingDayChange,
  type ShippingDayInput,
} from "./schemas";
import { estimatedDeliveryDate, isFutureShipment, nextShippingDay, shopDateAndHour } from "./service";

/**
 * The shipping calendar: the days parcels go out. Staff add and remove days; the orders waiting to ship follow it.
 * An order's estimated shipping date is the next shipping day (a future shipment's: the first shipping day on or
 * after the day the customer asked for), and a PAID_FUTURE_SHIPMENT order becomes PAID_READY_TO_SHIP once its day
 * is the next shipping day. That is re-planned in the transaction of every calendar change, and every hour by the
 * `shipping-replan` job (`./jobs.ts`) as days pass and the cut-off goes by.
 */

// Any fixed number: calendar changes and re-plans take turns, so each plans against the calendar the last one left.
const CALENDAR_LOCK = 80_412_012;

/** The orders that wait for a shipping day: not yet packed, shipped or cancelled. */
const waitingStatuses = ["PENDING", "PAID_READY_TO_SHIP", "PAID_FUTURE_SHIPMENT"] as const satisfies readonly OrderStatus[];

/** Orders planned on a calendar day that are not yet on their way; packed orders count, they still leave that day. */
const plannedStatuses = [...waitingStatuses, "PROCESSED"] as const satisfies readonly OrderStatus[];

/** How many upcoming shipping days the calendar page lists beside the month. */
const UPCOMING_DAYS = 12;

/** The shipping days in a range, the next ones from today, and how many orders are planned on each day. */
export async function listShippingDays(db: Db, rawInput: ShippingCalendarRangeInput, now: Date = new Date()): Promise<ShippingCalendarView> {
  const { from, to } = shippingCalendarRangeInput.parse(rawInput);
  const today = shopDateAndHour(now).date;
  const [days, upcoming, planned] = await Promise.all([
    db.select({ date: shippingCalendar.shortDate }).from(shippingCalendar).where(between(shippingCalendar.shortDate, from, to)).orderBy(asc(shippingCalendar.shortDate)),
    db.select({ date: shippingCalendar.shortDate }).from(shippingCalendar).where(gte(shippingCalendar.shortDate, today)).orderBy(asc(shippingCalendar.shortDate)).limit(UPCOMING_DAYS),
    db
      .select({ date: orderDetail.estimatedShippingDate, count: count() })
      .from(orderDetail)
      .innerJoin(order, eq(order.id, orderDetail.orderId))
      .where(and(between(orderDetail.estimatedShippingDate, from, to), inArray(order.status, [...plannedStatuses])))
      .groupBy(orderDetail.estimatedShippingDate)
      .orderBy(asc(orderDetail.estimatedShippingDate)),
  ]);
  const upcomingDays = upcoming.map((row) => row.date);
  return {
    from,
    to,
    today,
    nextShippingDay: nextShippingDay(upcomingDays, now),
    days: days.map((row) => row.date),
    upcoming: upcomingDays,
    // The range leaves out orders without a date.
    plannedOrders: planned.map((row) => ({ date: row.date!, count: row.count })),
  };
}

type Actor = { userId: string | null; now?: Date };

/** Adds a shipping day (not in the past) and re-plans the orders waiting to ship; adding a day twice changes nothing. */
export function addShippingDay(db: Db, rawInput: ShippingDayInput, actor: Actor): Promise<ShippingDayChange> {
  return changeShippingDay(db, rawInput, actor, "added", async (tx, date) => {
    const added = await tx.insert(shippingCalendar).values({ shortDate: date }).onConflictDoNothing().returning({ id: shippingCalendar.id });
    return added.length > 0;
  });
}

/** Removes a shipping day (not in the past) and re-plans the orders that were to leave on it. */
export function removeShippingDay(db: Db, rawInput: ShippingDayInput, actor: Actor): Promise<ShippingDayChange> {
  return changeShippingDay(db, rawInput, actor, "removed", async (tx, date) => {
    const removed = await tx.delete(shippingCalendar).where(eq(shippingCalendar.shortDate, date)).returning({ id: shippingCalendar.id });
    return removed.length > 0;
  });
}

/** One change to the calendar, refused for a past day, logged and followed by a re-plan when it changed anything. */
async function changeShippingDay(
  db: Db,
  rawInput: ShippingDayInput,
  actor: Actor,
  what: "added" | "removed",
  change: (tx: Db, date: string) => Promise<boolean>,
): Promise<ShippingDayChange> {
  const { date } = shippingDayInput.parse(rawInput);
  const now = actor.now ?? new Date();
  if (date < shopDateAndHour(now).date) throw new AppError("BAD_REQUEST", `${date} is in the past; only today and later days can change.`);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${CALENDAR_LOCK})`);
    const changed = await change(tx, date);
    if (changed) {
      await logChange(tx, {
        userId: actor.userId,
        eventType: "ORDER",
        previousState: { shippingDay: what === "removed" ? date : null },
        newState: { shippingDay: what === "added" ? date : null },
        description: `Shipping calendar: ${date} ${what === "added" ? "added as a shipping day" : "is no longer a shipping day"}`,
      });
    }
    const replan = changed ? await planShipments(tx, actor.userId, now) : { released: [], moved: [] };
    return { date, changed, nextShippingDay: nextShippingDay(await calendarFromToday(tx, now), now), replan };
  });
}

/** The calendar's days from today on. */
async function calendarFromToday(db: Db, now: Date): Promise<string[]> {
  const rows = await db.select({ date: shippingCalendar.shortDate }).from(shippingCalendar).where(gte(shippingCalendar.shortDate, shopDateAndHour(now).date)).orderBy(asc(shippingCalendar.shortDate));
  return rows.map((row) => row.date);
}

/** Re-plans the orders waiting to ship against the calendar as it is now, in its own transaction (the hourly job). */
export async function replanShipments(db: Db, now: Date = new Date()): Promise<ShipmentReplan> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${CALENDAR_LOCK})`);
    return planShipments(tx, null, now);
  });
}

/**
 * Makes the orders waiting to ship follow the calendar: a future shipment whose day is no later than the next
 * shipping day becomes ready to ship (through `transitionOrder`, logged); every waiting order's estimated shipping
 * date becomes the next shipping day (a future shipment's: the first shipping day on or after its own), with its
 * delivery date moved by the destination's delivery days. Each order is locked while it changes, so a payment
 * settling it at the same moment waits. Without any shipping day planned nothing can be said, and nothing changes.
 */
async function planShipments(tx: Db, userId: string | null, now: Date): Promise<ShipmentReplan> {
  const calendar = await calendarFromToday(tx, now);
  const next = nextShippingDay(calendar, now);
  const result: ShipmentReplan = { released: [], moved: [] };
  if (!next) return result;
  const waiting = await selectOrderWithDetails(tx)
    .where(inArray(order.status, [...waitingStatuses]))
    .orderBy(asc(order.id))
    .for("update", { of: order });

  for (const { order: row, detail, destination } of waiting) {
    const shippingDate = detail.estimatedShippingDate;
    const stillFuture = row.status === "PAID_FUTURE_SHIPMENT" && shippingDate !== null && isFutureShipment(shippingDate, next);
    if (row.status === "PAID_FUTURE_SHIPMENT" && !stillFuture) {
      await transitionOrder(tx, row.id, "PAID_READY_TO_SHIP", { userId, description: `Its shipping date has come: ${next} is the next shipping day.`, now });
      result.released.push(row.orderNumber);
    }
    // A future shipment beyond the planned calendar keeps the day it asked for.
    const planned = stillFuture ? (calendar.find((day) => day >= shippingDate!) ?? shippingDate!) : next;
    if (planned === shippingDate) continue;
    const etaDays = destination === null ? null : detail.shippingMethod === "TNT" ? destination.tntEtaDays : destination.untrackedEtaDays;
    const deliveryDate = etaDays === null ? detail.estimatedDeliveryDate : estimatedDeliveryDate(planned, etaDays);
    await tx.update(orderDetail).set({ estimatedShippingDate: planned, estimatedDeliveryDate: deliveryDate }).where(eq(orderDetail.orderId, row.id));
    await logOrderChange(tx, row.id, {
      userId,
      previousState: { estimatedShippingDate: shippingDate, estimatedDeliveryDate: detail.estimatedDeliveryDate },
      newState: { estimatedShippingDate: planned, estimatedDeliveryDate: deliveryDate },
      description: `Order ${row.orderNumber}: estimated shipping date ${shippingDate ?? "none"} → ${planned}, following the shipping calendar`,
    });
    result.moved.push(row.orderNumber);
  }
  return result;
}
