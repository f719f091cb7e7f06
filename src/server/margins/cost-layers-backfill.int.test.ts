import { Decimal } from "decimal.js";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { order, orderItem, product, stockLot } from "@/server/db/schema";
import { createSandboxPayments } from "@/server/integrations/payments/sandbox";
import { makeUser, setExchangeRate } from "../../../tests/helpers/admin-fixtures";
import { buildCostScenario } from "../../../tests/helpers/cost-scenario";
import { makeProduct, placeGuestOrder, stockFromBox } from "../../../tests/helpers/factories";
import { payOnSandbox } from "../../../tests/helpers/paid-orders";
import { lotsNotHoldingStock, recordedLines } from "../../../tests/helpers/fifo-replay";
import { costSales, salesIn } from "../../../tests/helpers/fifo-over-history";
import { seededDatabaseForFile } from "../../../tests/helpers/seeded-database";
import { backfillCostLayers } from "./cost-layers-backfill";

/**
 * The one-time recording of cost layers for a ledger written before they were (issue 29): it must reproduce the
 * figures the shop showed until then, fifo.ts's rule over the whole history (`costSales`, today's code), to the cent.
 */

const now = new Date("2026-03-04T09:00:00Z");
const t = seededDatabaseForFile({ now, products: 24 });
const allTime = { from: new Date("2000-01-01T00:00:00Z"), to: new Date("9999-01-01T00:00:00Z") };

/** The database as an older version left it: the ledger, no lots and no costs. */
async function forgetCostLayers() {
  await t.db.execute(sql`delete from stock_record_cost`);
  await t.db.execute(sql`delete from stock_lot`);
}

const allProducts = async () => (await t.db.select({ id: product.id }).from(product)).map((row) => row.id);

let placedFirstPaidSecond: Awaited<ReturnType<typeof placeGuestOrder>>;

beforeAll(async () => {
  const admin = await makeUser(t.db, "ADMIN", "Ada");
  const payments = createSandboxPayments({ db: t.db, baseUrl: "https://shop.example" });
  await buildCostScenario(t.db, { adminId: admin.id, payments, now });
  // Two orders paid in the other order than they were placed: the older pieces go to the one paid first, as fifo.ts has it.
  const watch = await makeProduct(t.db, { name: "Watch paid out of turn", price: "70.00", stock: 0 });
  await setExchangeRate(t.db, "60");
  await stockFromBox(t.db, admin.id, { productId: watch.id, quantity: 1, unitCost: "600.00", currency: "PHP" });
  await setExchangeRate(t.db, "65");
  await stockFromBox(t.db, admin.id, { productId: watch.id, quantity: 1, unitCost: "715.00", currency: "PHP" });
  const at = (minutes: number) => new Date(now.getTime() + minutes * 60_000);
  placedFirstPaidSecond = await placeGuestOrder(t.db, { email: "late@example.com", items: [{ productId: watch.id, quantity: 1 }] }, at(30));
  const placedSecondPaidFirst = await placeGuestOrder(t.db, { email: "early@example.com", items: [{ productId: watch.id, quantity: 1 }] }, at(31));
  await payOnSandbox(t.db, placedSecondPaidFirst, payments, "paid", at(32));
  await payOnSandbox(t.db, placedFirstPaidSecond, payments, "paid", at(33));
});

describe("recording the cost layers of an older ledger", () => {
  it("the seed, with its history written in bulk, ends with lots that hold every product's stock", async () => {
    expect(await lotsNotHoldingStock(t.db)).toEqual([]);
    // Recorded as the shop runs now, a line takes its pieces when it is placed: the first order placed had the €10.00 one.
    const [line] = await t.db.select({ id: orderItem.id }).from(orderItem).where(eq(orderItem.orderId, placedFirstPaidSecond.orderId));
    expect((await recordedLines(t.db, await allProducts())).get(line!.id)?.costEuro).toBe("10.00");
  });

  it("records for every sold line what FIFO over the whole history costs it today, to the cent, and lots that hold the stock", async () => {
    await forgetCostLayers();
    const recorded = await t.db.transaction((tx) => backfillCostLayers(tx));
    expect(recorded?.lots).toBeGreaterThan(0);

    const today = await costSales(t.db, allTime, await salesIn(t.db, allTime));
    expect(today.size).toBeGreaterThan(20);
    const lines = await recordedLines(t.db, await allProducts());
    const differing = [...today].flatMap(([orderItemId, cost]) => {
      const line = lines.get(orderItemId) ?? { costEuro: "0.00", costPhp: "0.00", unknownCostPieces: 0, pieces: 0 };
      const expected = { costEuro: cost.costEuro.toFixed(2), costPhp: cost.costPhp.toFixed(2), unknownCostPieces: cost.unknownCostPieces, pieces: cost.pieces };
      return JSON.stringify(line) === JSON.stringify(expected) ? [] : [{ orderItemId, line, expected }];
    });
    expect(differing).toEqual([]);
    // Some of it matters: the sales have a cost, and the pieces found went to the unpaid orders after every sale.
    expect([...today.values()].reduce((total, cost) => total.plus(cost.costEuro), new Decimal(0)).greaterThan(0)).toBe(true);
    expect([...lines.values()].some((line) => line.unknownCostPieces > 0)).toBe(true);
    expect(await lotsNotHoldingStock(t.db)).toEqual([]);
    // Recorded when placed, the first order placed had the €10.00 piece; paid second, today's figures give it the €11.00 one.
    const [line] = await t.db.select({ id: orderItem.id }).from(orderItem).where(eq(orderItem.orderId, placedFirstPaidSecond.orderId));
    expect(lines.get(line!.id)).toEqual({ costEuro: "11.00", costPhp: "715.00", unknownCostPieces: 0, pieces: 1 });
  });

  it("lets the lines of unpaid orders hold the pieces they took, and runs only once", async () => {
    const unpaid = await t.db
      .select({ id: orderItem.id, quantity: orderItem.quantity })
      .from(orderItem)
      .innerJoin(order, eq(order.id, orderItem.orderId))
      .where(eq(order.status, "PENDING"));
    expect(unpaid.length).toBeGreaterThan(0);
    const lines = await recordedLines(t.db, await allProducts());
    for (const line of unpaid) expect(lines.get(line.id)?.pieces).toBe(line.quantity);

    expect(await t.db.transaction((tx) => backfillCostLayers(tx))).toBeNull();
  });

  it("stops, naming the product and recording nothing, when a product holds less stock than its ledger leaves", async () => {
    await forgetCostLayers();
    const [inStock] = await t.db.select({ id: product.id, name: product.name, stock: product.stock }).from(product).where(sql`${product.stock} > 0`).orderBy(product.id).limit(1);
    await t.db.update(product).set({ stock: inStock!.stock - 1 }).where(eq(product.id, inStock!.id));

    const failure = await t.db.transaction((tx) => backfillCostLayers(tx)).catch((error: unknown) => error);

    expect(String(failure)).toContain(`product ${inStock!.id} (${inStock!.name}): ${inStock!.stock - 1} in stock`);
    expect(await t.db.select({ id: stockLot.id }).from(stockLot).limit(1)).toEqual([]);
  });
});
