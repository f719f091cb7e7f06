import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { logbook, product, stockLot, stockRecord } from "@/server/db/schema";
import type { Logger } from "@/server/logger";
import { seededDatabaseForFile } from "../../../tests/helpers/seeded-database";
import { stockReconciliationJob } from "./jobs";
import { reconcileStock } from "./reconciliation";

const t = seededDatabaseForFile({ products: 40 });

function stockCheckEntries() {
  return t.db
    .select({ entityId: logbook.entityId, logLevel: logbook.logLevel, errorData: logbook.errorData })
    .from(logbook)
    .where(and(eq(logbook.eventType, "STOCK_CHANGE"), sql`${logbook.description} like 'Stock check:%'`))
    .orderBy(logbook.id);
}

describe("stock ledger reconciliation", () => {
  it("finds no drift in a freshly seeded shop and logs nothing", async () => {
    expect(await reconcileStock(t.db)).toEqual([]);
    expect(await stockCheckEntries()).toEqual([]);
  });

  it("reports products whose stock is not their ledger's sum, at ERROR in the logbook", async () => {
    const [inStock] = await t.db.select({ id: product.id, stock: product.stock }).from(product).where(sql`${product.stock} > 0`).orderBy(product.id).limit(1);
    const [soldOut] = await t.db.select({ id: product.id }).from(product).where(eq(product.stock, 0)).orderBy(product.id).limit(1);
    if (!inStock || !soldOut) throw new Error("the seed has no product in stock or none sold out");
    // Two ways the ledger and the stock part: a stock written without a ledger row, and a ledger row without the stock.
    await t.db.update(product).set({ stock: inStock.stock + 2 }).where(eq(product.id, inStock.id));
    await t.db.insert(stockRecord).values({ productId: soldOut.id, type: "INVENTORY_CORRECTION", quantity: 3 });

    const drift = await reconcileStock(t.db);

    expect(drift).toEqual([
      expect.objectContaining({ productId: Math.min(inStock.id, soldOut.id) }),
      expect.objectContaining({ productId: Math.max(inStock.id, soldOut.id) }),
    ]);
    expect(drift).toContainEqual(expect.objectContaining({ productId: inStock.id, stock: inStock.stock + 2, ledgerStock: inStock.stock }));
    expect(drift).toContainEqual(expect.objectContaining({ productId: soldOut.id, stock: 0, ledgerStock: 3 }));
    const entries = await stockCheckEntries();
    expect(entries.map((entry) => [entry.entityId, entry.logLevel])).toEqual(
      expect.arrayContaining([
        [String(inStock.id), "ERROR"],
        [String(soldOut.id), "ERROR"],
      ]),
    );
    expect(entries.find((entry) => entry.entityId === String(inStock.id))?.errorData).toEqual({
      stock: inStock.stock + 2,
      ledgerStock: inStock.stock,
      difference: 2,
      lotStock: inStock.stock,
    });
  });

  it("the nightly job checks again and says how many products drift", async () => {
    const before = (await stockCheckEntries()).length;
    const lines: string[] = [];
    const log = { info: (_: unknown, line: string) => lines.push(line), error: (_: unknown, line: string) => lines.push(line) } as unknown as Logger;

    await stockReconciliationJob.run({}, { db: t.db, log, jobId: "nightly", attempt: 1 });

    expect((await stockCheckEntries()).length).toBe(before + 2);
    expect(lines).toEqual(["2 product(s) have stock that differs from their ledger or their cost lots"]);
  });

  it("reports a product whose cost lots do not hold its stock, though its ledger does", async () => {
    const [lot] = await t.db
      .select({ id: stockLot.id, productId: stockLot.productId, piecesLeft: stockLot.piecesLeft })
      .from(stockLot)
      .innerJoin(product, eq(product.id, stockLot.productId))
      .where(sql`${stockLot.piecesLeft} > 1 and ${product.stock} = (select sum(r.quantity) from stock_record r where r.product_id = ${product.id})`)
      .orderBy(stockLot.id)
      .limit(1);
    if (!lot) throw new Error("the seed has no lot with pieces left");
    const [before] = await t.db.select({ stock: product.stock }).from(product).where(eq(product.id, lot.productId));
    await t.db.update(stockLot).set({ piecesLeft: lot.piecesLeft - 1 }).where(eq(stockLot.id, lot.id));

    const drift = await reconcileStock(t.db);

    expect(drift).toContainEqual(expect.objectContaining({ productId: lot.productId, stock: before!.stock, ledgerStock: before!.stock, lotStock: before!.stock - 1 }));
    const entries = await stockCheckEntries();
    expect(entries.filter((entry) => entry.entityId === String(lot.productId)).at(-1)?.errorData).toEqual({ stock: before!.stock, ledgerStock: before!.stock, difference: 0, lotStock: before!.stock - 1 });
  });

  it("the database itself refuses a stock below zero", async () => {
    const [first] = await t.db.select({ id: product.id }).from(product).orderBy(product.id).limit(1);
    const error: unknown = await t.db.update(product).set({ stock: -1 }).where(eq(product.id, first!.id)).catch((caught: unknown) => caught);
    expect(String((error as { cause?: unknown } | undefined)?.cause)).toContain("product_stock_non_negative");
    const [after] = await t.db.select({ stock: product.stock }).from(product).where(eq(product.id, first!.id));
    expect(after?.stock).toBeGreaterThanOrEqual(0);
  });
});
