import { Decimal } from "decimal.js";
import { and, eq, inArray, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { orderItem, stockLot, stockRecordCost } from "@/server/db/schema";
import type { PaymentsPort } from "@/server/integrations/payments/port";
import { createSandboxPayments } from "@/server/integrations/payments/sandbox";
import { orderMargin } from "@/server/margins/order-margin";
import { createManualOrderInput, updateManualOrderInput } from "@/server/orders/manual-order-schemas";
import { createManualOrder, updateManualOrder } from "@/server/orders/manual-order-service";
import { makeUser, setExchangeRate } from "../../../tests/helpers/admin-fixtures";
import { buildCostScenario, type CostScenario } from "../../../tests/helpers/cost-scenario";
import { amsterdamAddress, makeProduct, placeGuestOrder, stockFromBox } from "../../../tests/helpers/factories";
import { lotsNotHoldingStock, recordedLines, recordedLots, replayLedger } from "../../../tests/helpers/fifo-replay";
import { seededDatabaseForFile } from "../../../tests/helpers/seeded-database";
import { reconcileStock } from "./reconciliation";

/**
 * The cost of each piece recorded as it moves (issue 29), on a real database through the shop's own services: what
 * every line holds and what every lot has left must be exactly what a first-bought-first-sold replay of the whole
 * ledger from scratch (tests/helpers/fifo-replay.ts, written apart from the production code) makes of it.
 */

const now = new Date("2026-03-04T09:00:00Z"); // Wednesday 10:00 in Amsterdam, a shipping day before the cut-off
const t = seededDatabaseForFile({ now });
let admin: { id: string };
let payments: PaymentsPort;

beforeAll(async () => {
  admin = await makeUser(t.db, "ADMIN", "Ada");
  payments = createSandboxPayments({ db: t.db, baseUrl: "https://shop.example" });
});

async function lineId(orderId: number, productId: number) {
  const [line] = await t.db.select({ id: orderItem.id }).from(orderItem).where(and(eq(orderItem.orderId, orderId), eq(orderItem.productId, productId)));
  return line!.id;
}

describe("the cost of each piece, recorded when it moves", () => {
  let scenario: CostScenario;
  beforeAll(async () => {
    scenario = await buildCostScenario(t.db, { adminId: admin.id, payments, now });
  });

  it("agrees exactly with a FIFO replay of the ledger: every line's cost and every lot's pieces left", async () => {
    const products = [scenario.watchId, scenario.strapId];
    const replay = await replayLedger(t.db, products);

    expect(await recordedLots(t.db, products)).toEqual(replay.lots);
    expect(Object.fromEntries(await recordedLines(t.db, products))).toEqual(Object.fromEntries(replay.lines));
    expect(await lotsNotHoldingStock(t.db, products)).toEqual([]);
    expect(await reconcileStock(t.db)).toEqual([]);
  });

  it("costs the sales by the boxes they came from, at each box's rate, and gives a restocked piece's cost back", async () => {
    const { orders, watchId } = scenario;
    const lines = await recordedLines(t.db, [watchId, scenario.strapId]);
    const watchLine = async (order: { orderId: number }) => lines.get(await lineId(order.orderId, watchId));
    // Three of the first box at €10.00 (600 pesos at 60), one refunded but not back in stock: all three still cost.
    expect(await watchLine(orders.paidThenRefundedKept)).toEqual({ costEuro: "30.00", costPhp: "1800.00", unknownCostPieces: 0, pieces: 3 });
    // The first box's last and the second's first (€11.00: 715 pesos at 65); the restocked one gave back the €11.00.
    expect(await watchLine(orders.paidThenRestocked)).toEqual({ costEuro: "10.00", costPhp: "600.00", unknownCostPieces: 0, pieces: 1 });
    // Cancelled orders hold nothing.
    expect(await watchLine(orders.failedPayment)).toMatchObject({ costEuro: "0.00", pieces: 0 });
    expect(await watchLine(orders.cancelledByStaff)).toMatchObject({ costEuro: "0.00", pieces: 0 });
    // The order page's margin card reads the same recorded cost.
    const margin = await orderMargin(t.db, orders.paidThenRefundedKept.orderId);
    expect(margin.lines.find((line) => line.productId === watchId)?.purchaseCost.toFixed(2)).toBe("30.00");
    expect(margin.purchaseCost.toFixed(2)).toBe("32.00"); // and the strap at €2.00 (120 pesos at 60)
    // The last sale took the second box's rest and the two pieces found, which have no known cost.
    const last = await watchLine(orders.paidLast);
    expect(last?.unknownCostPieces).toBe(2);
    const lastMargin = await orderMargin(t.db, orders.paidLast.orderId);
    expect(lastMargin.unknownCostPieces).toBe(2);
    expect(lastMargin.purchaseCost.toFixed(2)).toBe(new Decimal(last!.costEuro).plus("2.00").toFixed(2));
  });

  it("takes every piece of both products, and none twice", async () => {
    const lots = await recordedLots(t.db, [scenario.watchId, scenario.strapId]);
    expect(lots.filter((lot) => lot.productId === scenario.watchId).map((lot) => lot.piecesLeft)).toEqual([0, 0, 0]);
    const [taken] = await t.db
      .select({ pieces: sql<number>`-sum(${stockRecordCost.pieces})`.mapWith(Number) })
      .from(stockRecordCost)
      .innerJoin(stockLot, eq(stockLot.id, stockRecordCost.lotId))
      .where(eq(stockLot.productId, scenario.watchId));
    // Ten in (eight bought, two found), none left: ten out net, across sales, the write-off and the unpaid order.
    expect(taken?.pieces).toBe(10);
  });
});

describe("pieces given back", () => {
  it("a line removed from a manual order goes back into the lots it took, at their cost, and the next sale takes them", async () => {
    const watch = await makeProduct(t.db, { name: "Removed-line watch", price: "80.00", stock: 0 });
    const strap = await makeProduct(t.db, { name: "Kept strap", price: "15.00", stock: 1 });
    await setExchangeRate(t.db, "60");
    await stockFromBox(t.db, admin.id, { productId: watch.id, quantity: 1, unitCost: "600.00", currency: "PHP" });
    await setExchangeRate(t.db, "65");
    await stockFromBox(t.db, admin.id, { productId: watch.id, quantity: 1, unitCost: "715.00", currency: "PHP" });
    const address = { ...amsterdamAddress };
    const saved = await createManualOrder(
      t.db,
      createManualOrderInput.parse({ userId: null, address, email: "a@example.com", shippingMethod: "TNT", paymentMethod: "ACCOUNT", paid: false, lines: [{ productId: watch.id, quantity: 1 }, { productId: strap.id, quantity: 1 }] }),
      { userId: admin.id, now },
    );
    await updateManualOrder(t.db, updateManualOrderInput.parse({ orderNumber: saved.orderNumber, address, email: "a@example.com", shippingMethod: "TNT", lines: [{ productId: strap.id, quantity: 1 }] }), { userId: admin.id, now });

    expect((await recordedLots(t.db, [watch.id])).map((lot) => [lot.unitCostEuro, lot.piecesLeft])).toEqual([["10.00", 1], ["11.00", 1]]);
    const next = await placeGuestOrder(t.db, { email: "next@example.com", items: [{ productId: watch.id, quantity: 1 }] }, now);
    expect((await recordedLines(t.db, [watch.id])).get(await lineId(next.orderId, watch.id))).toMatchObject({ costEuro: "10.00", pieces: 1 });
    expect(await lotsNotHoldingStock(t.db, [watch.id, strap.id])).toEqual([]);
  });
});

describe("two orders racing for the last pieces of two lots", () => {
  it("each piece is costed once: one order takes the older lot, the other the newer, and a third is refused", async () => {
    const watch = await makeProduct(t.db, { name: "Raced watch", price: "90.00", stock: 0 });
    await setExchangeRate(t.db, "60");
    await stockFromBox(t.db, admin.id, { productId: watch.id, quantity: 1, unitCost: "600.00", currency: "PHP" });
    await setExchangeRate(t.db, "65");
    await stockFromBox(t.db, admin.id, { productId: watch.id, quantity: 1, unitCost: "715.00", currency: "PHP" });
    const order = (email: string) => placeGuestOrder(t.db, { email, items: [{ productId: watch.id, quantity: 1 }] }, now);

    const placed = await Promise.allSettled([order("first@example.com"), order("second@example.com"), order("third@example.com")]);

    const won = placed.filter((result) => result.status === "fulfilled");
    expect(won).toHaveLength(2);
    const lines = await recordedLines(t.db, [watch.id]);
    const costs = await Promise.all(won.map(async (result) => lines.get(await lineId(result.value.orderId, watch.id))?.costEuro));
    expect(costs.sort()).toEqual(["10.00", "11.00"]);
    const rows = await t.db
      .select({ lotId: stockRecordCost.lotId, pieces: sql<number>`sum(${stockRecordCost.pieces})`.mapWith(Number) })
      .from(stockRecordCost)
      .where(inArray(stockRecordCost.lotId, t.db.select({ id: stockLot.id }).from(stockLot).where(eq(stockLot.productId, watch.id))))
      .groupBy(stockRecordCost.lotId);
    expect(rows.map((row) => row.pieces)).toEqual([-1, -1]);
    expect((await recordedLots(t.db, [watch.id])).map((lot) => lot.piecesLeft)).toEqual([0, 0]);
    expect(await lotsNotHoldingStock(t.db, [watch.id])).toEqual([]);
  });
});
