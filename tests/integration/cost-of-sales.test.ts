import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { Decimal } from "decimal.js";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { bulkChangeProducts } from "@/server/catalog/bulk-products";
import { product } from "@/server/db/schema";
import { createSandboxPayments } from "@/server/integrations/payments/sandbox";
import { backfillCostLayers } from "@/server/margins/cost-layers-backfill";
import { backfillSalesRollups } from "@/server/orders/sales-rollup";
import { sellers } from "@/server/reports/sellers";
import { sellThrough } from "@/server/reports/sell-through";
import { stockValuation } from "@/server/reports/stock-valuation";
import { foldHoldingChanges } from "@/server/stock/holdings";
import { makeUser } from "../helpers/admin-fixtures";
import { buildCostScenario, type CostScenario } from "../helpers/cost-scenario";
import { costSales, salesIn } from "../helpers/fifo-over-history";
import { makeCategory, placeGuestOrder } from "../helpers/factories";
import { holdingsAsStored, holdingsOfRecordedLots, lotsNotHoldingStock, recordedLines, recordedLots, replayLedger, type ReplayedHolding } from "../helpers/fifo-replay";
import { payOnSandbox } from "../helpers/paid-orders";
import { rollupsAsStored, salesFromScratch } from "../helpers/sales-from-scratch";
import { seededDatabaseForFile } from "../helpers/seeded-database";

/**
 * Issue 29, acceptance 2: orders placed, paid, refunded (back in stock and not), cancelled and edited across two boxes
 * bought at different exchange rates (tests/helpers/cost-scenario.ts, through the shop's own services). What the shop
 * recorded as it went (each line's cost, the lots, the three sales rollups) must be exactly what a first-bought-first-
 * sold worked out from scratch makes of the same history: the ledger replayed row by row (fifo-replay.ts) and the
 * order tables added up with those costs (sales-from-scratch.ts), both written apart from the shop's code. The
 * migration of a database written before costs and rollups were recorded is held the same way, against the FIFO the
 * shop used to work out over the whole history when asked (fifo-over-history.ts). What the lots hold per category and
 * box (stock_holding) and the products' quarters and years with their margin (sales_period_product) are held the same
 * way, before and after a product moves to another category, and so are the reports that read them: the stock
 * valuation, the sell-through and the best and worst sellers of every month, quarter and year.
 */

const now = new Date("2026-03-04T09:00:00Z"); // Wednesday 10:00 in Amsterdam, a shipping day before the cut-off
const t = seededDatabaseForFile({ now });
const allTime = { from: new Date("2000-01-01T00:00:00Z"), to: new Date("9999-01-01T00:00:00Z") };
const allProducts = async () => (await t.db.select({ id: product.id }).from(product)).map((row) => row.id);
let payments: ReturnType<typeof createSandboxPayments>;
let adminId: string;
let scenario: CostScenario;

beforeAll(async () => {
  const admin = await makeUser(t.db, "ADMIN", "Ada");
  adminId = admin.id;
  payments = createSandboxPayments({ db: t.db, baseUrl: "https://shop.example" });
  scenario = await buildCostScenario(t.db, { adminId, payments, now });
});

/** The stock valuation and the sell-through, as the reports give them, against the holdings from scratch. */
async function expectStockReportsToAgree(holdings: readonly ReplayedHolding[]) {
  const per = (key: "categoryId" | "boxId") => {
    const groups = new Map<number, { bought: number; left: number; euro: Decimal; php: Decimal; unknown: number; writtenOff: number }>();
    for (const row of holdings) {
      const group = groups.get(row[key]) ?? { bought: 0, left: 0, euro: new Decimal(0), php: new Decimal(0), unknown: 0, writtenOff: 0 };
      groups.set(row[key], { bought: group.bought + row.bought, left: group.left + row.left, euro: group.euro.plus(row.euro), php: group.php.plus(row.php), unknown: group.unknown + row.unknown, writtenOff: group.writtenOff + row.writtenOff });
    }
    return [...groups.entries()].sort(([a], [b]) => a - b);
  };
  const valued = (rows: [number, { left: number; euro: Decimal; php: Decimal; unknown: number }][]) =>
    rows.filter(([, row]) => row.left > 0).map(([id, row]) => [id, row.left, row.euro.toFixed(2), row.php.toFixed(2), row.unknown]);
  const through = (rows: [number, { bought: number; left: number; writtenOff: number }][]) =>
    rows.filter(([, row]) => row.bought > 0).map(([id, row]) => [id, row.bought, row.bought - row.left - row.writtenOff, row.writtenOff, row.left]);
  const byId = (a: (string | number)[], b: (string | number)[]) => Number(a[0]) - Number(b[0]);

  const valuation = await stockValuation(t.db);
  const all = per("categoryId").reduce((sum, [, row]) => ({ left: sum.left + row.left, euro: sum.euro.plus(row.euro), php: sum.php.plus(row.php), unknown: sum.unknown + row.unknown }), { left: 0, euro: new Decimal(0), php: new Decimal(0), unknown: 0 });
  expect([valuation.total.pieces, valuation.total.valueEuro.toFixed(2), valuation.total.valuePhp.toFixed(2), valuation.total.unknownCostPieces]).toEqual([all.left, all.euro.toFixed(2), all.php.toFixed(2), all.unknown]);
  expect(valuation.categories.map((row) => [row.categoryId ?? 0, row.pieces, row.valueEuro.toFixed(2), row.valuePhp.toFixed(2), row.unknownCostPieces]).sort(byId)).toEqual(valued(per("categoryId")));
  expect(valuation.boxes.map((row) => [row.boxId ?? 0, row.pieces, row.valueEuro.toFixed(2), row.valuePhp.toFixed(2), row.unknownCostPieces]).sort(byId)).toEqual(valued(per("boxId")));

  const sold = await sellThrough(t.db);
  expect(sold.categories.map((row) => [row.categoryId ?? 0, row.received, row.sold, row.writtenOff, row.left]).sort(byId)).toEqual(through(per("categoryId")));
  expect(sold.boxes.map((row) => [row.boxId ?? 0, row.received, row.sold, row.writtenOff, row.left]).sort(byId)).toEqual(through(per("boxId")));
}

/**
 * The best and worst sellers of every month, quarter and year with a sale, as the report ranks them, against the
 * products' margins from scratch (`rollups`: lines "2026-03-01 12: orders=… margin=…", "2026-Q1 12: …", "2026 12: …").
 */
async function expectSellersToAgree(rollups: { products: string[]; periods: string[] }) {
  const periods = new Map<string, { productId: number; margin: Decimal }[]>();
  for (const line of [...rollups.products, ...rollups.periods]) {
    const [, key, productId, orders, margin] = /^(\S+) (\d+): orders=(\d+) .* margin=(-?[\d.]+)$/.exec(line)!;
    const period = key!.length === 10 ? key!.slice(0, 7) : key!;
    if (Number(orders) > 0) periods.set(period, [...(periods.get(period) ?? []), { productId: Number(productId), margin: new Decimal(margin!) }]);
  }
  expect([...periods.keys()].some((period) => period.includes("-Q"))).toBe(true);
  for (const [period, products] of periods) {
    const ranked = (direction: 1 | -1) => [...products].sort((a, b) => direction * b.margin.comparedTo(a.margin) || a.productId - b.productId).map((row) => [row.productId, row.margin.toFixed(2)]);
    const found = await sellers(t.db, { period, limit: 100 });
    expect([period, found.best.map((row) => [row.productId, row.margin.toFixed(2)])]).toEqual([period, ranked(1)]);
    expect([period, found.worst.map((row) => [row.productId, row.margin.toFixed(2)])]).toEqual([period, ranked(-1)]);
  }
}

/** The statements the migration that made the holdings and the periods runs by hand after its generated part. */
function handWrittenBackfill(): string[] {
  const folder = path.join(process.cwd(), "drizzle");
  const file = readdirSync(folder).filter((name) => name.endsWith(".sql")).map((name) => readFileSync(path.join(folder, name), "utf8")).find((text) => /insert into "stock_holding"/i.test(text));
  const handWritten = file!.slice(file!.indexOf("-- hand-written:"));
  return handWritten.split("--> statement-breakpoint").map((statement) => statement.trim()).filter((statement) => /insert into/i.test(statement));
}

describe("the cost of sales and the owner's figures agree with a FIFO worked out from scratch", () => {
  it("as recorded while the shop ran: every line's cost, every lot, and the rollups per day, category and product", async () => {
    const products = await allProducts();
    const replay = await replayLedger(t.db, products);
    expect(await recordedLots(t.db, products)).toEqual(replay.lots);
    expect(Object.fromEntries(await recordedLines(t.db, products))).toEqual(Object.fromEntries(replay.lines));

    const stored = await rollupsAsStored(t.db);
    expect(stored.days.length).toBeGreaterThan(0);
    const fromScratch = await salesFromScratch(t.db, { lineCosts: replay.lines });
    expect(stored).toEqual(fromScratch);
    expect(stored.periods.length).toBeGreaterThan(0);

    // Three boxes (the watches' two at different rates, the straps'), the pieces found (no box), a write-off: what the
    // lots hold per category and box, and the reports on it.
    expect(replay.holdingRows.filter((row) => row.boxId !== 0).length).toBe(3);
    expect(replay.holdingRows.some((row) => row.writtenOff > 0)).toBe(true);
    expect(await holdingsAsStored(t.db)).toEqual(replay.holdings);
    await expectStockReportsToAgree(replay.holdingRows);
    await expectSellersToAgree(fromScratch);
    // Each change was written as a row of its own; the job adds them into the holdings, which then agree alone.
    expect((await foldHoldingChanges(t.db)).changes).toBeGreaterThan(10);
    expect(await holdingsAsStored(t.db, { folded: true })).toEqual(replay.holdings);
    expect((await foldHoldingChanges(t.db)).changes).toBe(0);
    await expectStockReportsToAgree(replay.holdingRows);
  });

  it("after a product moves to another category: its lots' holding moves with it, and sales after the move count there", async () => {
    const watches = await makeCategory(t.db, "Watches of the cost scenario");
    const straps = await makeCategory(t.db, "Straps of the cost scenario");
    await bulkChangeProducts(t.db, { action: "category", productIds: [scenario.watchId, scenario.strapId], categoryId: watches.id }, adminId);
    await bulkChangeProducts(t.db, { action: "category", productIds: [scenario.strapId], categoryId: straps.id }, adminId);
    // The last strap sold in its new category.
    const sold = await placeGuestOrder(t.db, { email: "after@example.com", items: [{ productId: scenario.strapId, quantity: 1 }] }, new Date(now.getTime() + 20 * 60_000));
    await payOnSandbox(t.db, sold, payments, "paid", new Date(now.getTime() + 20 * 60_000));

    const products = await allProducts();
    const replay = await replayLedger(t.db, products);
    expect(replay.holdingRows.filter((row) => row.left > 0 || row.bought > 0).map((row) => row.categoryId).sort()).toEqual(expect.arrayContaining([watches.id, straps.id]));
    expect(replay.holdingRows.every((row) => row.categoryId !== 0 || row.bought === 0)).toBe(true);
    expect(await holdingsAsStored(t.db)).toEqual(replay.holdings);
    await expectStockReportsToAgree(replay.holdingRows);
    const stored = await rollupsAsStored(t.db);
    const fromScratch = await salesFromScratch(t.db, { lineCosts: replay.lines });
    // Per day, product and period; the rollup per category keeps each sale in the category it was made in
    expect([stored.days, stored.products, stored.periods]).toEqual([fromScratch.days, fromScratch.products, fromScratch.periods]);
    // (from scratch counts every sale in the product's category now): the straps' new category holds the one sold since.
    expect(stored.categories.filter((line) => line.includes(` ${straps.id}: `))).toEqual([expect.stringMatching(/ orders=1 pieces=1 revenue=20\.00 /)]);
    await expectSellersToAgree(fromScratch);
  });

  it("as the migration fills them from the lots and the months as they stand: the same holdings and periods", async () => {
    const holdings = await holdingsAsStored(t.db);
    const periods = (await rollupsAsStored(t.db)).periods;
    await t.db.execute(sql`delete from stock_holding_change`);
    await t.db.execute(sql`delete from stock_holding`);
    await t.db.execute(sql`delete from sales_period_product`);
    const statements = handWrittenBackfill();
    expect(statements).toHaveLength(2);
    for (const statement of statements) await t.db.execute(sql.raw(statement));
    expect(await holdingsAsStored(t.db)).toEqual(holdings);
    expect((await rollupsAsStored(t.db)).periods).toEqual(periods);
  });

  it("as migrated from a database that recorded neither: the shop's earlier FIFO over the whole history, to the cent", async () => {
    await t.db.execute(sql`delete from stock_record_cost`);
    await t.db.execute(sql`delete from stock_lot`);
    await t.db.execute(sql`delete from order_sales_share`);
    await t.db.execute(sql`delete from sales_day`);
    await t.db.execute(sql`delete from sales_day_category`);
    await t.db.execute(sql`delete from sales_month_product`);
    await t.db.execute(sql`delete from sales_period_product`);
    await t.db.execute(sql`delete from stock_holding_change`);
    await t.db.execute(sql`delete from stock_holding`);

    // What setup/migrate.ts runs after the migrations.
    await t.db.transaction((tx) => backfillCostLayers(tx));
    await backfillSalesRollups(t.db);

    const earlier = await costSales(t.db, allTime, await salesIn(t.db, allTime));
    const lineCosts = new Map(
      [...earlier].map(([orderItemId, cost]) => [orderItemId, { costEuro: cost.costEuro.toFixed(2), costPhp: cost.costPhp.toFixed(2), unknownCostPieces: cost.unknownCostPieces }]),
    );
    expect(lineCosts.size).toBeGreaterThanOrEqual(5);
    expect(await rollupsAsStored(t.db)).toEqual(await salesFromScratch(t.db, { lineCosts }));
    expect(await lotsNotHoldingStock(t.db)).toEqual([]);
    // What the backfilled lots hold per category and box, and the reports on it.
    const backfilled = await holdingsOfRecordedLots(t.db);
    expect(await holdingsAsStored(t.db)).toEqual(backfilled.holdings);
    await expectStockReportsToAgree(backfilled.holdingRows);
  });
});
