import "server-only";
import { Decimal } from "decimal.js";
import { eq, sql } from "drizzle-orm";
import type { StockRecordType } from "@/lib/enums";
import type { Db } from "@/server/db/client";
import { rawRows } from "@/server/db/raw-rows";
import { purchaseRecord, stockLot, stockRecordCost } from "@/server/db/schema";
import { holdLot, holdMovedPieces } from "./holdings";

/*
 * The cost of each piece, recorded when it moves (issue 29): every ledger row `bookStock` writes either brings pieces
 * in as a lot (`stock_lot`: pieces that came in together at one cost) or takes pieces from the lots and gives them
 * back (`stock_record_cost`), first bought, first sold. So a line's purchase cost is what its rows there add up to,
 * read in one index lookup, and no figure ever works out FIFO over the history again. The lots of a product with
 * pieces left add up to its stock (the stock reconciliation checks it).
 */

/** A ledger row as `bookStock` writes it, with the one reference that says what caused it. */
export type BookedRow = {
  stockRecordId: number;
  productId: number;
  type: StockRecordType;
  /** Signed: positive brings pieces in, negative takes them out. */
  quantity: number;
  purchaseRecordId?: number;
  orderItemId?: number;
};

/**
 * Records what the ledger row does to the product's lots, in the caller's transaction, after `bookStock` locked the
 * product's row (so two bookings of one product never take the same pieces):
 * - pieces bought (a positive PURCHASE_RECORD row): a lot at the purchase record's unit costs, euro (the box's rate) and peso;
 * - pieces that belong to an order line coming back (a cancelled or edited order, a restocking refund): back into the
 *   lots the line holds them from, the ones it took last first, at their cost;
 * - any other pieces in (found by a correction) and pieces beyond what the line holds: a lot of unknown cost;
 * - pieces out (an order line as it is placed, a write-off, a failed refund's pieces taken again): the oldest pieces
 *   left, lot by lot, each lot touched one `stock_record_cost` row.
 */
export async function recordCostLayers(tx: Db, row: BookedRow): Promise<void> {
  if (row.quantity < 0) return takeOldest(tx, row, -row.quantity);
  if (row.quantity === 0) return;
  let pieces = row.quantity;
  if (row.orderItemId !== undefined && row.type !== "PURCHASE_RECORD") pieces -= await giveBackToLine(tx, row, row.orderItemId);
  if (pieces === 0) return;
  const bought = row.type === "PURCHASE_RECORD" && row.purchaseRecordId !== undefined ? await unitCostsOf(tx, row.purchaseRecordId) : undefined;
  const [lot] = await tx
    .insert(stockLot)
    .values({
      productId: row.productId,
      stockRecordId: row.stockRecordId,
      purchaseRecordId: bought ? row.purchaseRecordId : undefined,
      bookedAt: sql`now()`,
      pieces,
      piecesLeft: pieces,
      unitCostEuro: bought?.euro ?? null,
      unitCostPhp: bought?.php ?? null,
    })
    .returning({ id: stockLot.id });
  await holdLot(tx, lot!.id);
}

async function unitCostsOf(tx: Db, purchaseRecordId: number) {
  const [bought] = await tx
    .select({ euro: purchaseRecord.purchaseCostEuro, php: purchaseRecord.purchaseCostPhp })
    .from(purchaseRecord)
    .where(eq(purchaseRecord.id, purchaseRecordId));
  return bought;
}

type LotSlice = { lotId: number; pieces: number; unitCostEuro: string | null; unitCostPhp: string | null };

/** `pieces` at a lot's unit cost, signed as `pieces`; null for a lot of unknown cost. */
const costOf = (unitCost: string | null, pieces: number) => (unitCost === null ? null : new Decimal(unitCost).times(pieces));

/** Writes the slices as the row's cost rows and moves each lot's pieces left by the same amount (`pieces` signed). */
async function recordSlices(tx: Db, row: BookedRow, slices: readonly LotSlice[]): Promise<void> {
  if (slices.length === 0) return;
  await tx.insert(stockRecordCost).values(
    slices.map((slice) => ({
      stockRecordId: row.stockRecordId,
      lotId: slice.lotId,
      orderItemId: row.orderItemId,
      pieces: slice.pieces,
      costEuro: costOf(slice.unitCostEuro, slice.pieces),
      costPhp: costOf(slice.unitCostPhp, slice.pieces),
    })),
  );
  const ids = `{${slices.map((slice) => slice.lotId).join(",")}}`;
  const moves = `{${slices.map((slice) => slice.pieces).join(",")}}`;
  await tx.execute(sql`
    update ${stockLot} set pieces_left = pieces_left + m.pieces, updated_at = now()
    from (select lot_id, sum(pieces) as pieces from unnest(${ids}::int[], ${moves}::int[]) as u(lot_id, pieces) group by lot_id) m
    where ${stockLot.id} = m.lot_id`);
  // Pieces a correction took (no order line's): written off, which the sell-through tells apart from pieces sold.
  await holdMovedPieces(tx, { lotIds: ids, pieces: moves, writeOff: row.type === "INVENTORY_CORRECTION" && row.orderItemId === undefined });
}

/**
 * Takes `count` of the product's oldest pieces left (`booked_at`, then id). Should the lots hold fewer than the
 * ledger lets go (they add up to the stock, which `bookStock` keeps from going below zero, so only data changed by
 * hand can), the rest come from a lot of unknown cost made for them, which the stock reconciliation then reports.
 */
async function takeOldest(tx: Db, row: BookedRow, count: number): Promise<void> {
  const lots = await rawRows<{ id: number; piecesLeft: number; before: number; unitCostEuro: string | null; unitCostPhp: string | null }>(
    tx,
    sql`select id, "piecesLeft", before::int, "unitCostEuro", "unitCostPhp" from (
          select id, pieces_left as "piecesLeft", unit_cost_euro as "unitCostEuro", unit_cost_php as "unitCostPhp",
            sum(pieces_left) over (order by booked_at, id) - pieces_left as before
          from ${stockLot} where product_id = ${row.productId} and pieces_left > 0
        ) lots where before < ${count} order by before`,
  );
  const slices: LotSlice[] = [];
  let left = count;
  for (const lot of lots) {
    const pieces = Math.min(left, lot.piecesLeft);
    slices.push({ lotId: lot.id, pieces: -pieces, unitCostEuro: lot.unitCostEuro, unitCostPhp: lot.unitCostPhp });
    left -= pieces;
  }
  if (left > 0) {
    const [missing] = await tx
      .insert(stockLot)
      .values({ productId: row.productId, stockRecordId: row.stockRecordId, bookedAt: sql`now()`, pieces: left, piecesLeft: left })
      .returning({ id: stockLot.id });
    await holdLot(tx, missing!.id);
    slices.push({ lotId: missing!.id, pieces: -left, unitCostEuro: null, unitCostPhp: null });
  }
  await recordSlices(tx, row, slices);
}

/**
 * Puts up to `row.quantity` pieces back into the lots the order line holds them from, the pieces it took last first
 * (its cost rows replayed in order: a take stacks its lots, a return unstacks from the top), at their cost; returns
 * how many it put back (no more than the line holds).
 */
async function giveBackToLine(tx: Db, row: BookedRow, orderItemId: number): Promise<number> {
  const rows = await rawRows<{ lotId: number; pieces: number; unitCostEuro: string | null; unitCostPhp: string | null }>(
    tx,
    sql`select c.lot_id as "lotId", c.pieces, l.unit_cost_euro as "unitCostEuro", l.unit_cost_php as "unitCostPhp"
        from ${stockRecordCost} c join ${stockLot} l on l.id = c.lot_id
        where c.order_item_id = ${orderItemId} order by c.id`,
  );
  const held: LotSlice[] = [];
  const unstack = (count: number, given: LotSlice[] | null) => {
    let left = count;
    while (left > 0 && held.length > 0) {
      const top = held.at(-1)!;
      const pieces = Math.min(left, top.pieces);
      given?.push({ ...top, pieces });
      top.pieces -= pieces;
      left -= pieces;
      if (top.pieces === 0) held.pop();
    }
    return count - left;
  };
  for (const cost of rows) {
    if (cost.pieces < 0) held.push({ ...cost, pieces: -cost.pieces });
    else unstack(cost.pieces, null);
  }
  const slices: LotSlice[] = [];
  const given = unstack(row.quantity, slices);
  await recordSlices(tx, row, slices);
  return given;
}
