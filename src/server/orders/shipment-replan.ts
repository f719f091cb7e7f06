import "server-only";
import { asc, eq, inArray } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { order, orderDetail } from "@/server/db/schema";
import { logOrderChange } from "@/server/logbook/service";
import { calendarFromToday, changeShippingDay, lockCalendar, shippingDayToChange, waitingStatuses } from "@/server/shipping/calendar";
import { changeClosingDay } from "@/server/shipping/closed-days";
import { closingDayInput, type ClosingDayInput, type ShipmentReplan, type ShippingDayChange, type ShippingDayInput } from "@/server/shipping/schemas";
import { estimatedDeliveryDate, isFutureShipment, nextShippingDay } from "@/server/shipping/service";
import { selectOrderWithDetails } from "./order-rows";
import { transitionOrder } from "./service";

/**
 * The orders waiting to ship follow the shipping calendar (`shipping/calendar.ts`): an order's estimated shipping
 * date is the next shipping day (a future shipment's: the first shipping day on or after the day the customer asked
 * for), and a PAID_FUTURE_SHIPMENT order becomes PAID_READY_TO_SHIP once its day is the next shipping day. That is
 * re-planned in the transaction of every calendar change, and every hour by the `shipping-replan` job as days pass
 * and the cut-off goes by. It moves orders, so it is orders' workflow over the calendar shipping keeps.
 */

type Actor = { userId: string | null; now?: Date };

/** Adds a shipping day (not in the past) and re-plans the orders waiting to ship; adding a day twice changes nothing. */
export function addShippingDay(db: Db, rawInput: ShippingDayInput, actor: Actor): Promise<ShippingDayChange> {
  return changeCalendar(db, rawInput, actor, "added");
}

/** Removes a shipping day (not in the past) and re-plans the orders that were to leave on it. */
export function removeShippingDay(db: Db, rawInput: ShippingDayInput, actor: Actor): Promise<ShippingDayChange> {
  return changeCalendar(db, rawInput, actor, "removed");
}

/**
 * Closes the shop on a day (not in the past), with the reason: nothing ships that day, and the orders that were to
 * leave on it are re-planned on the next shipping day, each logged (the toast says how many moved). Orders already
 * packed for that day are not moved: staff see them in Ready to Ship.
 */
export async function addClosingDay(db: Db, rawInput: ClosingDayInput, actor: Actor): Promise<ShippingDayChange> {
  const { reason } = closingDayInput.parse(rawInput);
  return changeCalendar(db, rawInput, actor, (tx, date) => changeClosingDay(tx, { date, what: "added", reason }, actor.userId));
}

/** Opens the shop again on a closing day: a shipping day planned on it counts again, and the waiting orders follow. */
export function removeClosingDay(db: Db, rawInput: ShippingDayInput, actor: Actor): Promise<ShippingDayChange> {
  return changeCalendar(db, rawInput, actor, (tx, date) => changeClosingDay(tx, { date, what: "removed" }, actor.userId));
}

/** One change to the calendar, refused for a past day, logged and followed by a re-plan when it changed anything. */
async function changeCalendar(
  db: Db,
  rawInput: ShippingDayInput,
  actor: Actor,
  what: "added" | "removed" | ((tx: Db, date: string) => Promise<boolean>),
): Promise<ShippingDayChange> {
  const now = actor.now ?? new Date();
  const date = shippingDayToChange(rawInput, now);
  return db.transaction(async (tx) => {
    await lockCalendar(tx);
    const changed = typeof what === "function" ? await what(tx, date) : await changeShippingDay(tx, date, what, actor.userId);
    const replan = changed ? await planShipments(tx, actor.userId, now) : { released: [], moved: [] };
    return { date, changed, nextShippingDay: nextShippingDay(await calendarFromToday(tx, now), now), replan };
  });
}

/** Re-plans the orders waiting to ship against the calendar as it is now, in its own transaction (the hourly job). */
export async function replanShipments(db: Db, now: Date = new Date()): Promise<ShipmentReplan> {
  return db.transaction(async (tx) => {
    await lockCalendar(tx);
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
