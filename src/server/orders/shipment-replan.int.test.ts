import { and, asc, eq, isNull } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { logbook, order, shippingCalendar } from "@/server/db/schema";
import { listShippingDays } from "@/server/shipping/calendar";
import { getNextShippingDay } from "@/server/shipping/service";
import { makeUser } from "../../../tests/helpers/admin-fixtures";
import { makeStockedProduct, placeOneWatchOrder } from "../../../tests/helpers/factories";
import { seededDatabaseForFile } from "../../../tests/helpers/seeded-database";
import { createManualOrderInput } from "./manual-order-schemas";
import { createManualOrder } from "./manual-order-service";
import { selectOrderWithDetails } from "./order-rows";
import { transitionOrder } from "./service";
import { addShippingDay, removeShippingDay, replanShipments } from "./shipment-replan";

/**
 * The shipping calendar: staff add and remove the days parcels go out, and the orders waiting to ship follow it:
 * their estimated dates move, and a future shipment whose day has come becomes ready to ship.
 */

// Tuesday 3 March 2026, 10:00 in Amsterdam. The seed plans Mondays, Wednesdays and Fridays for eight weeks.
const tuesday = new Date("2026-03-03T09:00:00Z");
const t = seededDatabaseForFile({ now: tuesday });
let staff: { id: string };

const address = { firstName: "Grace", lastName: "Hopper", street: "Keizersgracht", houseNumber: "12", postCode: "1015 CJ", city: "Amsterdam", countryCode: "NL" };

async function paidOrder(shipOn?: string) {
  const watch = await makeStockedProduct(t.db, { name: `Watch to ship ${shipOn ?? "soon"}`, price: "50.00", stock: 1 });
  const input = createManualOrderInput.parse({ userId: null, address, email: "grace@example.com", lines: [{ productId: watch.id, quantity: 1 }], shippingMethod: "TNT", paymentMethod: "BANKTRANSFER", paid: true, shipOn });
  return createManualOrder(t.db, input, { userId: staff.id, now: tuesday });
}

async function shipmentOf(orderId: number) {
  const [row] = await selectOrderWithDetails(t.db).where(eq(order.id, orderId));
  return { status: row!.order.status, shippingDate: row!.detail.estimatedShippingDate, deliveryDate: row!.detail.estimatedDeliveryDate };
}

beforeAll(async () => {
  staff = await makeUser(t.db, "ADMIN", "Staff member");
});

describe("the shipping calendar", () => {
  it("lists the shipping days of a range, the next one and the upcoming days, with the orders planned on each", async () => {
    const placed = await placeOneWatchOrder(t.db, { email: "listed@example.com", method: "IDEAL", now: tuesday });
    const march = await listShippingDays(t.db, { from: "2026-03-01", to: "2026-03-31" }, tuesday);
    expect(march.days).toEqual(["2026-03-04", "2026-03-06", "2026-03-09", "2026-03-11", "2026-03-13", "2026-03-16", "2026-03-18", "2026-03-20", "2026-03-23", "2026-03-25", "2026-03-27", "2026-03-30"]);
    expect(march).toMatchObject({ today: "2026-03-03", nextShippingDay: "2026-03-04" });
    expect(march.upcoming.slice(0, 3)).toEqual(["2026-03-04", "2026-03-06", "2026-03-09"]);
    expect(march.plannedOrders).toContainEqual({ date: "2026-03-04", count: 1 });
    // Cancelled, so that it plans nothing on the days the other tests count.
    await t.db.transaction((tx) => transitionOrder(tx, placed.orderId, "CANCELLED", { userId: null, description: "Test: cancelled.", now: tuesday }));
    await expect(listShippingDays(t.db, { from: "2026-03-31", to: "2026-03-01" }, tuesday)).rejects.toThrow("must not be before the start");
  });

  it("adds a day once, logged, and brings the waiting orders' estimated dates forward", async () => {
    const waiting = await paidOrder();
    expect(await shipmentOf(waiting.orderId)).toEqual({ status: "PAID_READY_TO_SHIP", shippingDate: "2026-03-04", deliveryDate: "2026-03-05" });

    // Today (Tuesday, before the cut-off) becomes a shipping day: the order leaves today.
    const added = await addShippingDay(t.db, { date: "2026-03-03" }, { userId: staff.id, now: tuesday });
    expect(added).toMatchObject({ date: "2026-03-03", changed: true, nextShippingDay: "2026-03-03" });
    expect(added.replan.moved).toContain(waiting.orderNumber);
    expect(await shipmentOf(waiting.orderId)).toEqual({ status: "PAID_READY_TO_SHIP", shippingDate: "2026-03-03", deliveryDate: "2026-03-04" });
    expect(await addShippingDay(t.db, { date: "2026-03-03" }, { userId: staff.id, now: tuesday })).toMatchObject({ changed: false, replan: { moved: [], released: [] } });

    const log = await t.db.select({ userId: logbook.userId, description: logbook.description }).from(logbook).where(and(isNull(logbook.entityType), eq(logbook.userId, staff.id))).orderBy(asc(logbook.id));
    expect(log.map((entry) => entry.description)).toEqual(["Shipping calendar: 2026-03-03 added as a shipping day"]);
    await removeShippingDay(t.db, { date: "2026-03-03" }, { userId: staff.id, now: tuesday });
    expect(await shipmentOf(waiting.orderId)).toMatchObject({ shippingDate: "2026-03-04" });
  });

  it("refuses to change a day in the past", async () => {
    await t.db.insert(shippingCalendar).values({ shortDate: "2026-03-02" });
    await expect(addShippingDay(t.db, { date: "2026-03-02" }, { userId: staff.id, now: tuesday })).rejects.toMatchObject({ code: "BAD_REQUEST", message: "2026-03-02 is in the past; only today and later days can change." });
    await expect(removeShippingDay(t.db, { date: "2026-03-02" }, { userId: staff.id, now: tuesday })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await t.db.select().from(shippingCalendar).where(eq(shippingCalendar.shortDate, "2026-03-02"))).toHaveLength(1);
  });

  it("moves the orders of a removed day to the next one, and makes a future shipment ready once its day is the next", async () => {
    const soon = await paidOrder();
    // The customer wants it to leave on Monday 9 March: after Wednesday's and Friday's post, a future shipment.
    const later = await paidOrder("2026-03-09");
    expect(await shipmentOf(later.orderId)).toEqual({ status: "PAID_FUTURE_SHIPMENT", shippingDate: "2026-03-09", deliveryDate: "2026-03-10" });

    const wednesday = await removeShippingDay(t.db, { date: "2026-03-04" }, { userId: staff.id, now: tuesday });
    expect(wednesday).toMatchObject({ changed: true, nextShippingDay: "2026-03-06", replan: { released: [] } });
    // Friday + 1 day is Saturday.
    expect(await shipmentOf(soon.orderId)).toEqual({ status: "PAID_READY_TO_SHIP", shippingDate: "2026-03-06", deliveryDate: "2026-03-07" });
    expect(await shipmentOf(later.orderId)).toMatchObject({ status: "PAID_FUTURE_SHIPMENT" });

    // Without Friday's post either, Monday is the next shipping day: the future shipment is ready to ship.
    const friday = await removeShippingDay(t.db, { date: "2026-03-06" }, { userId: staff.id, now: tuesday });
    expect(friday.replan.released).toEqual([later.orderNumber]);
    expect(await shipmentOf(later.orderId)).toEqual({ status: "PAID_READY_TO_SHIP", shippingDate: "2026-03-09", deliveryDate: "2026-03-10" });
    const transition = await t.db.select({ description: logbook.description, userId: logbook.userId }).from(logbook).where(and(eq(logbook.entityType, "ORDER"), eq(logbook.entityId, String(later.orderId)))).orderBy(asc(logbook.id));
    expect(transition.at(-1)).toEqual({ userId: staff.id, description: `Order ${later.orderNumber}: PAID_FUTURE_SHIPMENT → PAID_READY_TO_SHIP. Its shipping date has come: 2026-03-09 is the next shipping day.` });

    await addShippingDay(t.db, { date: "2026-03-04" }, { userId: staff.id, now: tuesday });
    await addShippingDay(t.db, { date: "2026-03-06" }, { userId: staff.id, now: tuesday });
    expect(await getNextShippingDay(t.db, tuesday)).toBe("2026-03-04");
  });

  it("re-plans as days pass: the hourly job readies a future shipment on the morning its day is the next", async () => {
    const later = await paidOrder("2026-03-11");
    expect(await shipmentOf(later.orderId)).toMatchObject({ status: "PAID_FUTURE_SHIPMENT", shippingDate: "2026-03-11" });
    expect((await replanShipments(t.db, tuesday)).released).toEqual([]);

    // Monday 9 March after the cut-off: Wednesday 11 March is the next shipping day.
    const mondayAfternoon = new Date("2026-03-09T14:00:00Z");
    const replan = await replanShipments(t.db, mondayAfternoon);
    expect(replan.released).toContain(later.orderNumber);
    expect(await shipmentOf(later.orderId)).toMatchObject({ status: "PAID_READY_TO_SHIP", shippingDate: "2026-03-11" });
  });
});
