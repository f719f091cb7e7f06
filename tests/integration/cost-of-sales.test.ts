import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { product } from "@/server/db/schema";
import { createSandboxPayments } from "@/server/integrations/payments/sandbox";
import { backfillCostLayers } from "@/server/margins/cost-layers-backfill";
import { backfillSalesRollups } from "@/server/orders/sales-rollup";
import { makeUser } from "../helpers/admin-fixtures";
import { buildCostScenario } from "../helpers/cost-scenario";
import { costSales, salesIn } from "../helpers/fifo-over-history";
import { lotsNotHoldingStock, recordedLines, recordedLots, replayLedger } from "../helpers/fifo-replay";
import { rollupsAsStored, salesFromScratch } from "../helpers/sales-from-scratch";
import { seededDatabaseForFile } from "../helpers/seeded-database";

/**
 * Issue 29, acceptance 2: orders placed, paid, refunded (back in stock and not), cancelled and edited across two boxes
 * bought at different exchange rates (tests/helpers/cost-scenario.ts, through the shop's own services). What the shop
 * recorded as it went (each line's cost, the lots, the three sales rollups) must be exactly what a first-bought-first-
 * sold worked out from scratch makes of the same history: the ledger replayed row by row (fifo-replay.ts) and the
 * order tables added up with those costs (sales-from-scratch.ts), both written apart from the shop's code. The
 * migration of a database written before costs and rollups were recorded is held the same way, against the FIFO the
 * shop used to work out over the whole history when asked (fifo-over-history.ts).
 */

const now = new Date("2026-03-04T09:00:00Z"); // Wednesday 10:00 in Amsterdam, a shipping day before the cut-off
const t = seededDatabaseForFile({ now });
const allTime = { from: new Date("2000-01-01T00:00:00Z"), to: new Date("9999-01-01T00:00:00Z") };
const allProducts = async () => (await t.db.select({ id: product.id }).from(product)).map((row) => row.id);

beforeAll(async () => {
  const admin = await makeUser(t.db, "ADMIN", "Ada");
  await buildCostScenario(t.db, { adminId: admin.id, payments: createSandboxPayments({ db: t.db, baseUrl: "https://shop.example" }), now });
});

describe("the cost of sales and the owner's figures agree with a FIFO worked out from scratch", () => {
  it("as recorded while the shop ran: every line's cost, every lot, and the rollups per day, category and product", async () => {
    const products = await allProducts();
    const replay = await replayLedger(t.db, products);
    expect(await recordedLots(t.db, products)).toEqual(replay.lots);
    expect(Object.fromEntries(await recordedLines(t.db, products))).toEqual(Object.fromEntries(replay.lines));

    const stored = await rollupsAsStored(t.db);
    expect(stored.days.length).toBeGreaterThan(0);
    expect(stored).toEqual(await salesFromScratch(t.db, { lineCosts: replay.lines }));
  });

  it("as migrated from a database that recorded neither: the shop's earlier FIFO over the whole history, to the cent", async () => {
    await t.db.execute(sql`delete from stock_record_cost`);
    await t.db.execute(sql`delete from stock_lot`);
    await t.db.execute(sql`delete from order_sales_share`);
    await t.db.execute(sql`delete from sales_day`);
    await t.db.execute(sql`delete from sales_day_category`);
    await t.db.execute(sql`delete from sales_month_product`);

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
  });
});
