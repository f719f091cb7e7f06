import { and, asc, eq, isNull, like } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { logbook, order, shippingCalendar } from "@/server/db/schema";
import { listShippingDays } from "@/server/shipping/calendar";
import { getNextShippingDay } from "@/server/shipping/service";
import { makeUser } from "../../../tests/helpers/admin-fixtures";
import { makeStockedProduct } from "../../../tests/helpers/factories";
import { seededDatabaseForFile } from "../../../tests/helpers/seeded-database";
import { createManualOrderInput } from "./manual-order-schemas";
import { createManualOrder } from "./manual-order-service";
import { selectOrderWithDetails } from "./order-rows";
import { addClosingDay, addShippingDay, removeClosingDay } from "./shipment-replan";

/**
 * Nothing ships on a Dutch public holiday or a day the shop closes, whatever the calendar holds: the seed plans
 * Mondays, Wednesdays and Fridays, Friday 25 December 2026 among them, and an order must not be promised for it.
 */

// Wednesday 23 December 2026, 15:00 in Amsterdam: past the cut-off, so today's post has gone.
const wednesday = new Date("2026-12-23T14:00:00Z");
const t = seededDatabaseForFile({ now: wednesday });
let staff: { id: string };

const address = { firstName: "Grace", lastName: "Hopper", street: "Keizersgracht", houseNumber: "12", postCode: "1015 CJ", city: "Amsterdam", countryCode: "NL" };

async function paidOrder() {
  const watch = await makeStockedProduct(t.db, { name: "Watch for after Christmas", price: "50.00", stock: 1 });
  const input = createManualOrderInput.parse({ userId: null, address, email: "grace@example.com", lines: [{ productId: watch.id, quantity: 1 }], shippingMethod: "TNT", paymentMethod: "BANKTRANSFER", paid: true });
  return createManualOrder(t.db, input, { userId: staff.id, now: wednesday });
}

async function shippingDateOf(orderId: number) {
  const [row] = await selectOrderWithDetails(t.db).where(eq(order.id, orderId));
  return row!.detail.estimatedShippingDate;
}

beforeAll(async () => {
  staff = await makeUser(t.db, "ADMIN", "Staff member");
});

describe("public holidays on the shipping calendar", () => {
  it("never plan Christmas Day 2026: an order paid on the 23rd after the cut-off leaves Monday the 28th", async () => {
    expect((await t.db.select().from(shippingCalendar).where(eq(shippingCalendar.shortDate, "2026-12-25"))).length).toBe(1);
    expect(await getNextShippingDay(t.db, wednesday)).toBe("2026-12-28");
    const placed = await paidOrder();
    expect(await shippingDateOf(placed.orderId)).toBe("2026-12-28");

    const december = await listShippingDays(t.db, { from: "2026-12-01", to: "2026-12-31" }, wednesday);
    expect(december.days).not.toContain("2026-12-25");
    expect(december.upcoming.slice(0, 4)).toEqual(["2026-12-23", "2026-12-28", "2026-12-30", "2027-01-04"]);
    expect(december.closed).toEqual([
      { date: "2026-12-25", reason: "Christmas Day", kind: "holiday" },
      { date: "2026-12-26", reason: "Boxing Day", kind: "holiday" },
    ]);
  });

  it("never plan Easter Monday 2027", async () => {
    await t.db.insert(shippingCalendar).values([{ shortDate: "2027-03-29" }, { shortDate: "2027-03-31" }]);
    expect(await getNextShippingDay(t.db, new Date("2027-03-27T10:00:00Z"))).toBe("2027-03-31");
  });

  it("refuse a holiday as a shipping day, saying which holiday it is", async () => {
    await expect(addShippingDay(t.db, { date: "2026-12-26" }, { userId: staff.id, now: wednesday })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "Saturday 26 December is Boxing Day: PostNL does not collect, so nothing can ship that day.",
    });
  });
});

describe("closing days", () => {
  it("are skipped: closing Monday the 28th moves its orders to Wednesday, logged, and opening it again brings them back", async () => {
    const placed = await paidOrder();
    expect(await shippingDateOf(placed.orderId)).toBe("2026-12-28");

    const closed = await addClosingDay(t.db, { date: "2026-12-28", reason: "Stock-taking" }, { userId: staff.id, now: wednesday });
    expect(closed).toMatchObject({ date: "2026-12-28", changed: true, nextShippingDay: "2026-12-30" });
    expect(closed.replan.moved).toContain(placed.orderNumber);
    expect(await shippingDateOf(placed.orderId)).toBe("2026-12-30");
    const view = await listShippingDays(t.db, { from: "2026-12-28", to: "2026-12-31" }, wednesday);
    expect(view.days).toEqual(["2026-12-30"]);
    expect(view.closed).toEqual([{ date: "2026-12-28", reason: "Stock-taking", kind: "closing" }]);
    await expect(addShippingDay(t.db, { date: "2026-12-28" }, { userId: staff.id, now: wednesday })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await addClosingDay(t.db, { date: "2026-12-28", reason: "Again" }, { userId: staff.id, now: wednesday })).toMatchObject({ changed: false });
    await expect(addClosingDay(t.db, { date: "2026-12-25", reason: "Christmas" }, { userId: staff.id, now: wednesday })).rejects.toMatchObject({ code: "BAD_REQUEST" });

    const opened = await removeClosingDay(t.db, { date: "2026-12-28" }, { userId: staff.id, now: wednesday });
    expect(opened).toMatchObject({ changed: true, nextShippingDay: "2026-12-28" });
    expect(await shippingDateOf(placed.orderId)).toBe("2026-12-28");

    const log = await t.db
      .select({ description: logbook.description })
      .from(logbook)
      .where(and(isNull(logbook.entityType), eq(logbook.userId, staff.id), like(logbook.description, "Shipping calendar:%")))
      .orderBy(asc(logbook.id));
    expect(log.map((entry) => entry.description)).toEqual([
      "Shipping calendar: the shop is closed on 2026-12-28 (Stock-taking); nothing ships that day",
      "Shipping calendar: 2026-12-28 is no longer a closing day (was: Stock-taking)",
    ]);
  });

  it("are refused without a reason, or in the past", async () => {
    await expect(addClosingDay(t.db, { date: "2026-12-30", reason: "  " }, { userId: staff.id, now: wednesday })).rejects.toThrow("must say why the shop is closed");
    await expect(addClosingDay(t.db, { date: "2026-12-22", reason: "Too late" }, { userId: staff.id, now: wednesday })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });
});
