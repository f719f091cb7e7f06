import "server-only";
import { eq, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { rawRows } from "@/server/db/raw-rows";
import { product, stockLot, stockRecord } from "@/server/db/schema";
import { logChange } from "@/server/logbook/service";

/**
 * A product whose stock is not the sum of its ledger, or not the pieces its cost lots have left (`lotStock`: what first
 * bought, first sold will take its sales' cost from, stock/cost-layers.ts).
 */
export type StockDrift = { productId: number; name: string; stock: number; ledgerStock: number; lotStock: number };

/** Past this many drifting products one summary entry stands for the rest, so that a broken night stays readable. */
export const DRIFTS_LOGGED_ONE_BY_ONE = 100;
// Any fixed number: with several instances, one checks at a time and the others skip that round.
const RECONCILIATION_LOCK = 80_412_006;

/**
 * Finds the products whose `product.stock` differs from the sum of their stock ledger (ARCHITECTURE section 3: the
 * stock is the ledger's sum, kept in step by `bookStock`) or from the pieces left in their cost lots (which `bookStock`
 * keeps in step too), and logs each at ERROR in the logbook. It corrects
 * nothing: which side is wrong is for staff to judge, and an inventory correction is how they fix it. Returns the
 * drift, or null when another instance is checking at the same moment.
 */
export async function reconcileStock(db: Db): Promise<StockDrift[] | null> {
  return db.transaction(async (tx) => {
    const [lock] = await rawRows<{ locked: boolean }>(tx, sql`select pg_try_advisory_xact_lock(${RECONCILIATION_LOCK}) as locked`);
    if (!lock?.locked) return null;
    const ledger = tx
      .select({ productId: stockRecord.productId, total: sql<string>`sum(${stockRecord.quantity})`.as("total") })
      .from(stockRecord)
      .groupBy(stockRecord.productId)
      .as("ledger");
    const lots = tx
      .select({ productId: stockLot.productId, total: sql<string>`sum(${stockLot.piecesLeft})`.as("lot_total") })
      .from(stockLot)
      .where(sql`${stockLot.piecesLeft} > 0`)
      .groupBy(stockLot.productId)
      .as("lots");
    const ledgerStock = sql`coalesce(${ledger.total}, 0)`;
    const lotStock = sql`coalesce(${lots.total}, 0)`;
    const drift: StockDrift[] = await tx
      .select({ productId: product.id, name: product.name, stock: product.stock, ledgerStock: ledgerStock.mapWith(Number), lotStock: lotStock.mapWith(Number) })
      .from(product)
      .leftJoin(ledger, eq(ledger.productId, product.id))
      .leftJoin(lots, eq(lots.productId, product.id))
      .where(sql`${product.stock} <> ${ledgerStock} or ${product.stock} <> ${lotStock}`)
      .orderBy(product.id);

    for (const item of drift.slice(0, DRIFTS_LOGGED_ONE_BY_ONE)) {
      await logChange(tx, {
        userId: null,
        eventType: "STOCK_CHANGE",
        entityType: "PRODUCT",
        entityId: item.productId,
        logLevel: "ERROR",
        description: `Stock check: product ${item.productId} (${item.name}) shows ${item.stock} in stock but its ledger adds up to ${item.ledgerStock} and its cost lots hold ${item.lotStock}`,
        errorData: { stock: item.stock, ledgerStock: item.ledgerStock, difference: item.stock - item.ledgerStock, lotStock: item.lotStock },
      });
    }
    if (drift.length > DRIFTS_LOGGED_ONE_BY_ONE) {
      await logChange(tx, {
        userId: null,
        eventType: "STOCK_CHANGE",
        logLevel: "ERROR",
        description: `Stock check: ${drift.length - DRIFTS_LOGGED_ONE_BY_ONE} more products' stock differs from their ledger or their cost lots`,
        errorData: { productIds: drift.slice(DRIFTS_LOGGED_ONE_BY_ONE).map((item) => item.productId) },
      });
    }
    return drift;
  });
}

