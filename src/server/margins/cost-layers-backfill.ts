import "server-only";
import { Decimal } from "decimal.js";
import { sql } from "drizzle-orm";
import { bulkInsert } from "@/server/db/bulk-insert";
import type { Db } from "@/server/db/client";
import { rawRows } from "@/server/db/raw-rows";
import { stockLot, stockRecordCost } from "@/server/db/schema";
import { rebuildHoldings } from "@/server/stock/holdings";
import { paidOrderStatuses } from "@/server/orders/order-machine";
import { compareLots, compareOutflows, keptPieces, type FifoOutflow } from "./fifo";

/*
 * The cost layers of a shop whose ledger was written before `bookStock` recorded them (issue 29): run once, after the
 * migrations (setup/migrate.ts, under their lock) and by the seed after it writes its history, on a database whose
 * ledger has rows and no lots yet. What it records reproduces the figures the shop showed until then, fifo.ts's rule
 * over the whole history, so that no margin moves by a cent:
 *
 * - the lots are the product's purchases booked into stock, in fifo.ts's order (the box's arrival, then the record),
 *   then the pieces corrections found, which have no known cost (fifo.ts's "pool is empty"), oldest first;
 * - the sold lines (paid, not cancelled) take the pieces their customers kept, in the order they were paid, and the
 *   write-offs theirs when they were written off, each from the oldest pieces left, as fifo.ts takes them;
 * - the lines that are no sale and still hold pieces then take them, in the order they were placed: an unpaid order's,
 *   and a cancelled order's whose pieces a refund kept out of stock (damaged) before it was cancelled.
 *
 * A line's pieces are recorded against its first ledger row that took pieces (its placement); a write-off's against its
 * own. Pieces that left beyond every lot (sold twice on eBay, counted in by hand) come from a lot of unknown cost made
 * for them. What the lots keep must then be the product's stock: where they keep less, the rest is a lot of unknown
 * cost (no ledger row brought it); where they keep more, the ledger took pieces that no line or write-off accounts
 * for (`product.stock` apart from its ledger's sum, which the stock reconciliation reports), and the backfill stops, naming the products, with nothing recorded: which side is wrong is for
 * a person to judge (the stock reconciliation's report says the same), and a cost made up for it would be wrong.
 */

/** Products read and written together: a few thousand lines' worth at a time, each batch a handful of queries. */
const PRODUCTS_PER_BATCH = 5_000;

const soldStatuses: readonly string[] = paidOrderStatuses;

export type CostLayersBackfill = { products: number; lots: number; costRows: number };

type Lot = { id: number; productId: number; stockRecordId: number | null; purchaseRecordId: number | null; bookedAt: Date; pieces: number; piecesLeft: number; unitCostEuro: Decimal | null; unitCostPhp: Decimal | null };
type CostRow = { stockRecordId: number; lotId: number; orderItemId: number | null; pieces: number; costEuro: Decimal | null; costPhp: Decimal | null };
/** Pieces that left stock, in the order they take lots; `stockRecordId` the ledger row their cost rows belong to. */
type Outflow = FifoOutflow & { stockRecordId: number | null; orderItemId: number | null };

/** Whether the database has a ledger and no lots yet: the one state the backfill runs in. */
export async function needsCostLayersBackfill(db: Db): Promise<boolean> {
  const [state] = await rawRows<{ ledger: boolean; lots: boolean }>(
    db,
    sql`select exists (select 1 from stock_record) as ledger, exists (select 1 from stock_lot) as lots`,
  );
  return Boolean(state?.ledger) && !state?.lots;
}

/**
 * Records the lots and what every line and write-off took from them for the whole ledger, in the caller's
 * transaction; null when there is nothing to do (no ledger, or lots already recorded).
 */
export async function backfillCostLayers(tx: Db): Promise<CostLayersBackfill | null> {
  if (!(await needsCostLayersBackfill(tx))) return null;
  const [range] = await rawRows<{ low: number | null; high: number | null }>(tx, sql`select min(product_id) as low, max(product_id) as high from stock_record`);
  const summary: CostLayersBackfill = { products: 0, lots: 0, costRows: 0 };
  const excess: string[] = [];
  let lotId = 0;
  for (let low = range!.low!; low <= range!.high!; low += PRODUCTS_PER_BATCH) {
    const batch = await readBatch(tx, low, low + PRODUCTS_PER_BATCH - 1);
    const lots: Lot[] = [];
    const costRows: CostRow[] = [];
    for (const [productId, history] of batch) {
      const recorded = layersOf(productId, history, () => ++lotId);
      const kept = recorded.lots.reduce((pieces, lot) => pieces + lot.piecesLeft, 0);
      if (kept < history.stock) {
        recorded.lots.push({ id: ++lotId, productId, stockRecordId: null, purchaseRecordId: null, bookedAt: new Date(), pieces: history.stock - kept, piecesLeft: history.stock - kept, unitCostEuro: null, unitCostPhp: null });
      } else if (kept > history.stock) {
        excess.push(`product ${productId} (${history.name}): ${history.stock} in stock, but its ledger leaves ${kept} pieces no order line or write-off took`);
      }
      lots.push(...recorded.lots);
      costRows.push(...recorded.costRows);
      summary.products++;
    }
    if (excess.length > 0) continue;
    await bulkInsert(tx, stockLot, lots);
    await bulkInsert(tx, stockRecordCost, costRows);
    summary.lots += lots.length;
    summary.costRows += costRows.length;
  }
  if (excess.length > 0) {
    throw new Error(
      `Recording the cost of stock stopped, nothing recorded: ${excess.length} product(s) hold less stock than their ledger leaves. ` +
        `Correct each one's stock (or its ledger) and start again: ${excess.slice(0, 20).join("; ")}${excess.length > 20 ? "; …" : ""}`,
    );
  }
  await tx.execute(sql`select setval(pg_get_serial_sequence('stock_lot', 'id'), ${lotId + 1}, false)`);
  // The lots were written here, not through recordCostLayers: what they hold per category and box, from them.
  await rebuildHoldings(tx);
  return summary;
}

type Purchase = { stockRecordId: number; purchaseRecordId: number; bookedAt: Date; pieces: number; unitCostEuro: Decimal; unitCostPhp: Decimal };
type ProductHistory = {
  name: string;
  stock: number;
  purchases: Purchase[];
  found: { stockRecordId: number; at: Date; pieces: number }[];
  sold: Outflow[];
  heldUnsold: (Outflow & { placedAt: Date })[];
};

/** One product's lots and cost rows, from its history (see the top of this file). */
export function layersOf(productId: number, history: ProductHistory, nextLotId: () => number): { lots: Lot[]; costRows: CostRow[] } {
  const lots: Lot[] = [...history.purchases]
    .sort((a, b) => compareLots(a, b))
    .map((purchase) => ({ id: nextLotId(), productId, stockRecordId: purchase.stockRecordId, purchaseRecordId: purchase.purchaseRecordId, bookedAt: purchase.bookedAt, pieces: purchase.pieces, piecesLeft: purchase.pieces, unitCostEuro: purchase.unitCostEuro, unitCostPhp: purchase.unitCostPhp }));
  for (const found of [...history.found].sort((a, b) => a.at.getTime() - b.at.getTime() || a.stockRecordId - b.stockRecordId)) {
    lots.push({ id: nextLotId(), productId, stockRecordId: found.stockRecordId, purchaseRecordId: null, bookedAt: found.at, pieces: found.pieces, piecesLeft: found.pieces, unitCostEuro: null, unitCostPhp: null });
  }
  const costRows: CostRow[] = [];
  let lotIndex = 0;
  const take = (outflow: Outflow, count: number) => {
    let left = count;
    while (left > 0) {
      let lot = lots[lotIndex];
      if (!lot) {
        // Pieces that left beyond every lot: a lot of unknown cost that nothing brought in, empty at once.
        lot = { id: nextLotId(), productId, stockRecordId: null, purchaseRecordId: null, bookedAt: outflow.at, pieces: left, piecesLeft: left, unitCostEuro: null, unitCostPhp: null };
        lots.push(lot);
      }
      const pieces = Math.min(left, lot.piecesLeft);
      lot.piecesLeft -= pieces;
      left -= pieces;
      if (lot.piecesLeft === 0) lotIndex++;
      if (outflow.stockRecordId !== null && pieces > 0) {
        costRows.push({
          stockRecordId: outflow.stockRecordId,
          lotId: lot.id,
          orderItemId: outflow.orderItemId,
          pieces: -pieces,
          costEuro: lot.unitCostEuro?.times(-pieces) ?? null,
          costPhp: lot.unitCostPhp?.times(-pieces) ?? null,
        });
      }
    }
  };
  for (const outflow of [...history.sold].sort(compareOutflows)) take(outflow, keptPieces(outflow));
  for (const outflow of [...history.heldUnsold].sort((a, b) => a.placedAt.getTime() - b.placedAt.getTime() || a.id - b.id)) take(outflow, outflow.pieces);
  return { lots, costRows };
}

/**
 * The history of the products with ids from `low` to `high` that have a ledger, per product: their ledger read in one
 * pass (with the purchase or correction behind each row), then the lines of their orders not cancelled.
 */
async function readBatch(tx: Db, low: number, high: number): Promise<Map<number, ProductHistory>> {
  const products = await rawRows<{ id: number; name: string; stock: number }>(
    tx,
    sql`select id, name, stock from product where id between ${low} and ${high} and exists (select 1 from stock_record r where r.product_id = product.id)`,
  );
  const batch = new Map<number, ProductHistory>(products.map((row) => [row.id, { name: row.name, stock: row.stock, purchases: [], found: [], sold: [], heldUnsold: [] }]));
  if (batch.size === 0) return batch;
  const ledger = await rawRows<{
    id: number; productId: number; type: string; quantity: number; orderItemId: number | null; at: string | Date;
    purchaseRecordId: number | null; euro: string | null; php: string | null; boxAt: string | Date | null; correctionId: number | null; correctionAt: string | Date | null;
  }>(
    tx,
    sql`select r.id, r.product_id as "productId", r.type, r.quantity, r.order_item_id as "orderItemId", r.created_at as at,
          p.id as "purchaseRecordId", p.purchase_cost_euro as euro, p.purchase_cost_php as php,
          case when b.status = 'EXPLODED' then b.updated_at end as "boxAt", c.id as "correctionId", c.created_at as "correctionAt"
        from stock_record r
        left join purchase_record p on p.id = r.purchase_record_id and r.type = 'PURCHASE_RECORD'
        left join box b on b.id = p.box_id
        left join inventory_correction c on c.id = r.inventory_correction_id and r.type = 'INVENTORY_CORRECTION'
        where r.product_id between ${low} and ${high}`,
  );
  /** Per order line, what the ledger holds of it: the pieces restocking refunds put back (fifo.ts's `restockedPieces`) and the row that took them when it was placed. */
  const held = new Map<number, { held: number; restocked: number; takenBy: number | null; firstRow: number }>();
  for (const row of ledger) {
    const history = batch.get(row.productId);
    if (!history) continue;
    if (row.orderItemId !== null) {
      const line = held.get(row.orderItemId) ?? { held: 0, restocked: 0, takenBy: null, firstRow: row.id };
      line.held -= row.quantity;
      if (row.type === "REFUND") line.restocked += row.quantity;
      if (row.type === "ORDER_ITEM" && row.quantity < 0 && (line.takenBy === null || row.id < line.takenBy)) line.takenBy = row.id;
      line.firstRow = Math.min(line.firstRow, row.id);
      held.set(row.orderItemId, line);
    } else if (row.type === "PURCHASE_RECORD" && row.quantity > 0 && row.purchaseRecordId !== null) {
      history.purchases.push({ stockRecordId: row.id, purchaseRecordId: row.purchaseRecordId, bookedAt: new Date(row.boxAt ?? row.at), pieces: row.quantity, unitCostEuro: new Decimal(row.euro!), unitCostPhp: new Decimal(row.php!) });
    } else if (row.type === "INVENTORY_CORRECTION" && row.quantity > 0) {
      history.found.push({ stockRecordId: row.id, at: new Date(row.correctionAt ?? row.at), pieces: row.quantity });
    } else if (row.type === "INVENTORY_CORRECTION" && row.quantity < 0) {
      // Written-off pieces leave as fifo.ts has them leave: at the correction's moment, by its id.
      history.sold.push({ kind: "WRITE_OFF", id: row.correctionId ?? row.id, at: new Date(row.correctionAt ?? row.at), pieces: -row.quantity, stockRecordId: row.id, orderItemId: null });
    }
  }
  // Every line: a cancelled order's too, which holds pieces a refund kept out of stock (damaged) before it was cancelled.
  const lines = await rawRows<{ productId: number; orderItemId: number; quantity: number; status: string; soldAt: string | Date | null; placedAt: string | Date }>(
    tx,
    sql`select i.product_id as "productId", i.id as "orderItemId", i.quantity, o.status, o.sold_at as "soldAt", o.created_at as "placedAt"
        from order_item i join "order" o on o.id = i.order_id
        where i.product_id between ${low} and ${high}`,
  );
  for (const line of lines) {
    const history = batch.get(line.productId);
    if (!history) continue;
    const ledgerOf = held.get(line.orderItemId);
    const outflow = { kind: "SALE" as const, id: line.orderItemId, stockRecordId: ledgerOf ? (ledgerOf.takenBy ?? ledgerOf.firstRow) : null, orderItemId: line.orderItemId };
    if (soldStatuses.includes(line.status) && line.soldAt !== null) {
      history.sold.push({ ...outflow, at: new Date(line.soldAt), pieces: line.quantity, restockedPieces: ledgerOf?.restocked ?? 0 });
    } else if ((ledgerOf?.held ?? 0) > 0) {
      history.heldUnsold.push({ ...outflow, at: new Date(line.placedAt), placedAt: new Date(line.placedAt), pieces: ledgerOf!.held });
    }
  }
  return batch;
}
