import os from "node:os";
import path from "node:path";
import { Decimal } from "decimal.js";
import { and, eq, isNotNull, ne } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Carrier } from "@/lib/enums";
import type { PlaceOrderInput } from "@/server/checkout/schemas";
import { order, orderDetail } from "@/server/db/schema";
import { seedDatabase } from "@/server/setup/seed/seed";
import { createLabel } from "@/server/fulfilment/labels";
import { createSandboxCarrier } from "@/server/integrations/carriers/sandbox";
import type { PaymentsPort } from "@/server/integrations/payments/port";
import { createSandboxPayments } from "@/server/integrations/payments/sandbox";
import { createSandboxPrivateStorage, createSandboxStorage } from "@/server/integrations/storage/sandbox";
import { createRefund } from "@/server/refunds/service";
import { correctInventory } from "@/server/stock/service";
import { makeUser, setExchangeRate } from "../../../tests/helpers/admin-fixtures";
import { makeProduct, placeGuestOrder, stockFromBox } from "../../../tests/helpers/factories";
import { payOnSandbox } from "../../../tests/helpers/paid-orders";
import { createTestDatabase, type TestDatabase } from "../../../tests/helpers/test-database";
import { monthlyMargins } from "./monthly-margins";
import { orderMargin } from "./order-margin";

/**
 * Margins on a real database: stock bought in boxes and booked into stock by exploding them (the stock service),
 * orders placed through checkout and paid through the sandbox provider and the payment webhook, labels bought from the
 * sandbox carrier and refunds given through the refunds service, which books restocked pieces back into the ledger.
 */

const now = new Date("2026-03-04T09:00:00Z"); // Wednesday 10:00 in Amsterdam, a shipping day before the cut-off
const minutes = (count: number) => new Date(now.getTime() + count * 60_000);
let t: TestDatabase;
let payments: PaymentsPort;
let admin: { id: string };
const storageRoot = path.join(os.tmpdir(), `margins-${process.pid}`);
const carriers = { POSTNL: createSandboxCarrier("POSTNL", { now: () => now }), UPS: createSandboxCarrier("UPS", { now: () => now }) };
const fulfilmentPorts = { carrierFor: (carrier: Carrier) => carriers[carrier], storage: createSandboxPrivateStorage({ root: path.join(storageRoot, "labels") }) };

/** A box of `pieces` pieces of the product bought in peso at `rate` pesos to the euro, shipped and exploded into stock. */
async function boxBoughtInPeso(productId: number, pieces: number, unitCostPhp: string, rate: string) {
  await setExchangeRate(t.db, rate);
  await stockFromBox(t.db, admin.id, { productId, quantity: pieces, unitCost: unitCostPhp, currency: "PHP" });
}

/**
 * A new product whose stock came in boxes bought in peso: first `atTen` pieces at €10.00 each (600 pesos at 60 to the
 * euro), then `atEleven` at €11.00 (715 pesos at 65).
 */
async function productFromBoxes(product: { name: string; price: string }, pieces: { atTen: number; atEleven?: number }) {
  const made = await makeProduct(t.db, { ...product, stock: 0 });
  await boxBoughtInPeso(made.id, pieces.atTen, "600.00", "60");
  if (pieces.atEleven) await boxBoughtInPeso(made.id, pieces.atEleven, "715.00", "65");
  return made;
}

/** A guest order placed through checkout and paid on the sandbox provider, the webhook settling it at `paidAt`. */
async function paidOrder(items: PlaceOrderInput["items"], paidAt: Date) {
  const placed = await placeGuestOrder(t.db, { email: "buyer@example.com", items }, paidAt);
  await payOnSandbox(t.db, placed, payments, "paid", paidAt);
  return placed;
}

/** A refund staff give on a placed order at `at`, through the refunds service. */
function giveRefund(placed: { orderNumber: string }, refund: Omit<Parameters<typeof createRefund>[1], "orderNumber">, at: Date) {
  return createRefund(t.db, { orderNumber: placed.orderNumber, ...refund }, { userId: admin.id, now: at }, { paymentsFor: () => payments });
}

beforeAll(async () => {
  t = await createTestDatabase();
  // A small demo shop, with its six months of web shop and eBay orders, for the figures that add orders up.
  await seedDatabase(t.db, createSandboxStorage({ root: path.join(storageRoot, "seed") }), { products: 24, images: 0, now });
  admin = await makeUser(t.db, "ADMIN", "Ada");
  payments = createSandboxPayments({ db: t.db, baseUrl: "https://shop.example" });
});

afterAll(() => t?.dispose());

describe("order margin", () => {
  it("costs pieces first bought, first sold across two boxes bought at different exchange rates", async () => {
    const crown = await productFromBoxes({ name: "Crown 5.5 mm", price: "40.00" }, { atTen: 3, atEleven: 3 });

    const first = await paidOrder([{ productId: crown.id, quantity: 2 }], minutes(1));
    const second = await paidOrder([{ productId: crown.id, quantity: 2 }], minutes(2));

    const a = await orderMargin(t.db, first.orderId);
    expect([a.sold, a.purchaseCost.toFixed(2), a.purchaseCostPhp.toFixed(2), a.unknownCostPieces]).toEqual([true, "20.00", "1200.00", 0]);
    const b = await orderMargin(t.db, second.orderId);
    // The last piece of box 1 and the first of box 2, each at its own box's rate.
    expect([b.purchaseCost.toFixed(2), b.purchaseCostPhp.toFixed(2)]).toEqual(["21.00", "1315.00"]);
    expect(b.lines.map((line) => [line.name, line.quantity, line.paid.toFixed(2), line.purchaseCost.toFixed(2)])).toEqual([["Crown 5.5 mm", 2, "80.00", "21.00"]]);
    // What the customer paid is the order's total: the items and the shipping with its surcharge.
    expect(b.paid.toFixed(2)).toBe(second.total.toFixed(2));
    expect(b.paid.greaterThan(80)).toBe(true);
    expect(b.margin?.toFixed(2)).toBe(b.paid.minus(21).toFixed(2));
  });

  it("takes the label, the refunds and the restocked pieces into a partially refunded order's margin", async () => {
    const bezel = await productFromBoxes({ name: "Bezel insert", price: "50.00" }, { atTen: 2, atEleven: 2 });
    const refunded = await paidOrder([{ productId: bezel.id, quantity: 3 }], minutes(10));
    await createLabel(t.db, refunded.orderId, { userId: admin.id, now: minutes(11) }, fulfilmentPorts);
    const [{ labelCost } = { labelCost: null }] = await t.db.select({ labelCost: orderDetail.labelCost }).from(orderDetail).where(eq(orderDetail.orderId, refunded.orderId));
    const [line] = (await orderMargin(t.db, refunded.orderId)).lines;
    expect(line!.purchaseCost.toFixed(2)).toBe("31.00");

    // One of the three pieces comes back and goes on the shelf again; the customer gets €50 back.
    const given = await giveRefund(refunded, { kind: "PRODUCT", orderItemId: line!.orderItemId, quantity: 1, restock: true, amount: new Decimal("50.00"), reason: "WRONG_ITEM" }, minutes(20));
    expect(given.status).toBe("REFUNDED");

    const margin = await orderMargin(t.db, refunded.orderId);
    // The two pieces kept are the oldest two: box 1's. The returned piece is in the pool again, at €11.00.
    expect([margin.purchaseCost.toFixed(2), margin.restockedPieces, margin.refunds.toFixed(2)]).toEqual(["20.00", 1, "50.00"]);
    expect(labelCost?.greaterThan(0)).toBe(true);
    expect(margin.labelCost.toFixed(2)).toBe(labelCost!.toFixed(2));
    expect(margin.margin!.toFixed(2)).toBe(refunded.total.minus("20.00").minus(margin.providerFees).minus(labelCost!).minus("50.00").toFixed(2));

    // The next buyer gets the returned piece; the one after that box 2's last, then nothing is left.
    const next = await paidOrder([{ productId: bezel.id, quantity: 2 }], minutes(30));
    expect((await orderMargin(t.db, next.orderId)).purchaseCost.toFixed(2)).toBe("22.00");
  });

  it("keeps the cost of pieces refunded without coming back, and counts only money that went back", async () => {
    const strap = await productFromBoxes({ name: "Leather strap", price: "30.00" }, { atTen: 2 });
    const placed = await paidOrder([{ productId: strap.id, quantity: 2 }], minutes(40));
    const [line] = (await orderMargin(t.db, placed.orderId)).lines;
    await giveRefund(placed, { kind: "PRODUCT", orderItemId: line!.orderItemId, quantity: 1, restock: false, amount: new Decimal("15.00"), reason: "DAMAGED" }, minutes(41));
    const margin = await orderMargin(t.db, placed.orderId);
    expect([margin.purchaseCost.toFixed(2), margin.restockedPieces, margin.refunds.toFixed(2)]).toEqual(["20.00", 0, "15.00"]);
    expect(margin.margin!.toFixed(2)).toBe(placed.total.minus("20.00").minus("15.00").toFixed(2));
  });

  it("reports pieces sold with no purchase left as of unknown cost, and written-off pieces take their place", async () => {
    const hands = await productFromBoxes({ name: "Hands set", price: "20.00" }, { atTen: 2 });
    // One piece is damaged and written off; two more are found in a drawer, with no purchase behind them.
    await correctInventory(t.db, { productId: hands.id, quantity: -1, reason: "DAMAGED" }, admin.id);
    await correctInventory(t.db, { productId: hands.id, quantity: 2, reason: "OTHER", comment: "Found in a drawer" }, admin.id);
    // Paid after the corrections (they are dated by the clock; the other orders here by the test's `now`).
    const placed = await paidOrder([{ productId: hands.id, quantity: 3 }], new Date(Date.now() + 60_000));
    const margin = await orderMargin(t.db, placed.orderId);
    expect([margin.purchaseCost.toFixed(2), margin.unknownCostPieces]).toEqual(["10.00", 2]);
  });

  it("costs a range's sales as the history does when an order was refunded in full after a restock and cancelled", async () => {
    const glass = await productFromBoxes({ name: "Crystal 30 mm", price: "30.00" }, { atTen: 1, atEleven: 3 });
    await paidOrder([{ productId: glass.id, quantity: 1 }], minutes(44)); // takes box 1's piece
    const returned = await paidOrder([{ productId: glass.id, quantity: 2 }], minutes(45));
    const [line] = (await orderMargin(t.db, returned.orderId)).lines;
    await giveRefund(returned, { kind: "PRODUCT", orderItemId: line!.orderItemId, quantity: 1, restock: true, amount: new Decimal("30.00"), reason: "OTHER" }, minutes(45));
    await giveRefund(returned, { kind: "PRODUCT", orderItemId: line!.orderItemId, quantity: 1, restock: false, amount: new Decimal("30.00"), reason: "OTHER" }, minutes(45));
    await giveRefund(returned, { kind: "SHIPPING", restock: false, amount: returned.total.minus("60.00"), reason: "OTHER" }, minutes(45));
    const [cancelled] = await t.db.select({ status: order.status }).from(order).where(eq(order.id, returned.orderId));
    expect(cancelled!.status).toBe("CANCELLED");

    // The cancelled order sold nothing: the next buyer's piece is the second one that left the pool, box 2's first.
    const later = await paidOrder([{ productId: glass.id, quantity: 1 }], minutes(46));
    expect((await orderMargin(t.db, later.orderId)).purchaseCost.toFixed(2)).toBe("11.00");
  });

  it("has no margin for an order that was never paid", async () => {
    const dial = await productFromBoxes({ name: "Dial", price: "25.00" }, { atTen: 1 });
    const placed = await placeGuestOrder(t.db, { email: "later@example.com", items: [{ productId: dial.id, quantity: 1 }] }, now);
    const margin = await orderMargin(t.db, placed.orderId);
    expect([margin.sold, margin.margin, margin.purchaseCost.toFixed(2)]).toEqual([false, null, "0.00"]);
    await expect(orderMargin(t.db, 999_999)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("margins over a range", () => {
  it("adds up to the margins of its orders, one by one, per month and channel", async () => {
    const months = await monthlyMargins(t.db, { months: 7, now: minutes(60) });
    expect(months).toHaveLength(14);
    expect(months.slice(0, 2).map((row) => [row.month, row.shop])).toEqual([
      ["2025-09", "WEBSHOP"],
      ["2025-09", "EBAY"],
    ]);
    expect(months.at(-1)?.month).toBe("2026-03");
    // The demo's history sells through both channels.
    expect(months.some((row) => row.shop === "EBAY" && row.orders > 0)).toBe(true);

    const sold = await t.db
      .select({ id: order.id })
      .from(order)
      .where(and(isNotNull(order.soldAt), ne(order.status, "CANCELLED")));
    const one = await Promise.all(sold.map((row) => orderMargin(t.db, row.id)));
    const inRange = one.filter((margin) => margin.soldAt! >= new Date("2025-08-31T22:00:00Z") && margin.soldAt! < minutes(60));
    const total = (values: Decimal[]) => values.reduce((sum, value) => sum.plus(value), new Decimal(0)).toFixed(2);
    expect(months.reduce((sum, row) => sum + row.orders, 0)).toBe(inRange.length);
    expect(total(months.map((row) => row.margin))).toBe(total(inRange.map((margin) => margin.margin!)));
    expect(total(months.map((row) => row.purchaseCost))).toBe(total(inRange.map((margin) => margin.purchaseCost)));
    expect(total(months.map((row) => row.refunds))).toBe(total(inRange.map((margin) => margin.refunds)));
  });

  it("splits a month by channel with revenue, shipping and costs", async () => {
    const [march] = (await monthlyMargins(t.db, { months: 1, now: minutes(60) })).filter((row) => row.shop === "WEBSHOP");
    expect(march!.month).toBe("2026-03");
    expect(march!.orders).toBeGreaterThanOrEqual(5); // the five paid in this file, and the demo's
    expect(march!.refunds.greaterThanOrEqualTo(65)).toBe(true);
    expect(march!.margin.toFixed(2)).toBe(
      march!.revenue.plus(march!.shipping).minus(march!.purchaseCost).minus(march!.providerFees).minus(march!.labelCost).minus(march!.refunds).toFixed(2),
    );
  });
});
