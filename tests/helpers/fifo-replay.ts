import { Decimal } from "decimal.js";
import { sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { rawRows } from "@/server/db/raw-rows";

/*
 * First bought, first sold worked out from scratch: the whole stock ledger replayed row by row, in the order it was
 * written, under issue 29's rule, written apart from the production code (stock/cost-layers.ts) so that a test can
 * hold what that code recorded against it:
 * - a positive PURCHASE_RECORD row is a lot at its purchase record's unit costs;
 * - a positive row of an order line (ORDER_ITEM, REFUND) gives back the pieces the line took, last taken first;
 *   what the line does not hold, and every other positive row, is a lot of unknown cost;
 * - a negative row takes the oldest pieces left, lot by lot; pieces beyond every lot come from a lot of unknown cost.
 */

export type ReplayedLot = { productId: number; unitCostEuro: string | null; unitCostPhp: string | null; pieces: number; piecesLeft: number };
export type ReplayedLine = { costEuro: string; costPhp: string; unknownCostPieces: number; pieces: number };

type Lot = { productId: number; box: number | null; euro: Decimal | null; php: Decimal | null; pieces: number; left: number; writtenOff: number };

const ofProducts = (column: string, productIds: readonly number[]) => sql`${sql.raw(column)} = any(${`{${productIds.join(",")}}`}::int[])`;

/**
 * The replay of the ledger of these products: their lots in the order they are taken, what each line holds, and what
 * the lots hold per category (the product's now) and box of their purchase, as `holdingsAsStored` lists them.
 */
export async function replayLedger(
  db: Db,
  productIds: readonly number[],
): Promise<{ lots: ReplayedLot[]; lines: Map<number, ReplayedLine>; holdings: string[]; holdingRows: ReplayedHolding[] }> {
  const ledger = await rawRows<{ productId: number; type: string; quantity: number; orderItemId: number | null; box: number | null; euro: string | null; php: string | null }>(
    db,
    sql`select r.product_id as "productId", r.type, r.quantity, r.order_item_id as "orderItemId", p.box_id as box, p.purchase_cost_euro as euro, p.purchase_cost_php as php
        from stock_record r left join purchase_record p on p.id = r.purchase_record_id where ${ofProducts("r.product_id", productIds)} order by r.id`,
  );
  const lots: Lot[] = [];
  /** What each line holds, as a stack of (lot, pieces): the last taken on top. */
  const holds = new Map<number, { lot: Lot; pieces: number }[]>();
  const newLot = (productId: number, pieces: number, euro: Decimal | null, php: Decimal | null, box: number | null = null) => {
    const lot = { productId, box, euro, php, pieces, left: pieces, writtenOff: 0 };
    lots.push(lot);
    return lot;
  };
  for (const row of ledger) {
    if (row.quantity < 0) {
      let wanted = -row.quantity;
      const stack = row.orderItemId === null ? [] : (holds.get(row.orderItemId) ?? []);
      for (const lot of lots) {
        if (wanted === 0) break;
        if (lot.productId !== row.productId || lot.left === 0) continue;
        const pieces = Math.min(wanted, lot.left);
        lot.left -= pieces;
        wanted -= pieces;
        stack.push({ lot, pieces });
      }
      if (wanted > 0) {
        const missing = newLot(row.productId, wanted, null, null);
        missing.left = 0;
        stack.push({ lot: missing, pieces: wanted });
      }
      // A correction's pieces (no line's) are written off, from the lots they were taken from.
      if (row.type === "INVENTORY_CORRECTION" && row.orderItemId === null) for (const taken of stack) taken.lot.writtenOff += taken.pieces;
      if (row.orderItemId !== null) holds.set(row.orderItemId, stack);
      continue;
    }
    let back = row.quantity;
    if (row.type !== "PURCHASE_RECORD" && row.orderItemId !== null) {
      const stack = holds.get(row.orderItemId) ?? [];
      while (back > 0 && stack.length > 0) {
        const top = stack[stack.length - 1]!;
        const pieces = Math.min(back, top.pieces);
        top.lot.left += pieces;
        top.pieces -= pieces;
        back -= pieces;
        if (top.pieces === 0) stack.pop();
      }
    }
    if (back === 0) continue;
    const bought = row.type === "PURCHASE_RECORD" && row.euro !== null;
    newLot(row.productId, back, bought ? new Decimal(row.euro!) : null, bought ? new Decimal(row.php!) : null, bought ? row.box : null);
  }
  const lines = new Map<number, ReplayedLine>();
  for (const [orderItemId, stack] of holds) {
    let euro = new Decimal(0);
    let php = new Decimal(0);
    let unknown = 0;
    let pieces = 0;
    for (const held of stack) {
      pieces += held.pieces;
      if (held.lot.euro === null) unknown += held.pieces;
      else {
        euro = euro.plus(held.lot.euro.times(held.pieces));
        php = php.plus(held.lot.php!.times(held.pieces));
      }
    }
    lines.set(orderItemId, { costEuro: euro.toFixed(2), costPhp: php.toFixed(2), unknownCostPieces: unknown, pieces });
  }
  return {
    // Per product in the order they came in (a stable sort), as the shop takes them.
    lots: [...lots].sort((a, b) => a.productId - b.productId).map((lot) => ({ productId: lot.productId, unitCostEuro: lot.euro?.toFixed(2) ?? null, unitCostPhp: lot.php?.toFixed(2) ?? null, pieces: lot.pieces, piecesLeft: lot.left })),
    lines,
    ...(await holdingsOf(db, lots)),
  };
}

/** What the replayed lots hold in one category (0: none) and box (0: none). */
export type ReplayedHolding = { categoryId: number; boxId: number; bought: number; left: number; euro: Decimal; php: Decimal; unknown: number; writtenOff: number };

/** What the lots hold per category and box, as rows and as lines of text, empty ones left out. */
async function holdingsOf(db: Db, lots: readonly Lot[]): Promise<{ holdings: string[]; holdingRows: ReplayedHolding[] }> {
  const categories = new Map((await rawRows<{ id: number; categoryId: number | null }>(db, sql`select id, category_id as "categoryId" from product`)).map((row) => [row.id, row.categoryId ?? 0]));
  const holdings = new Map<string, ReplayedHolding>();
  for (const lot of lots) {
    const [categoryId, boxId] = [categories.get(lot.productId)!, lot.box ?? 0];
    const key = `${categoryId} ${boxId}`;
    const holding = holdings.get(key) ?? { categoryId, boxId, bought: 0, left: 0, euro: new Decimal(0), php: new Decimal(0), unknown: 0, writtenOff: 0 };
    holding.bought += lot.pieces;
    holding.left += lot.left;
    holding.euro = holding.euro.plus(lot.euro?.times(lot.left) ?? 0);
    holding.php = holding.php.plus(lot.php?.times(lot.left) ?? 0);
    if (lot.euro === null) holding.unknown += lot.left;
    holding.writtenOff += lot.writtenOff;
    holdings.set(key, holding);
  }
  return {
    holdings: [...holdings.entries()].map(([key, row]) => holdingLine(key, row)).filter((line) => line !== null).sort(),
    holdingRows: [...holdings.values()],
  };
}

const holdingLine = (key: string, row: { bought: number; left: number; euro: Decimal; php: Decimal; unknown: number; writtenOff: number }) =>
  row.bought === 0 && row.left === 0 && row.writtenOff === 0 && row.euro.isZero() && row.php.isZero() && row.unknown === 0
    ? null
    : `${key}: bought=${row.bought} left=${row.left} euro=${row.euro.toFixed(2)} php=${row.php.toFixed(2)} unknown=${row.unknown} writtenOff=${row.writtenOff}`;

/**
 * What the lots as recorded hold per category and box, added up here from every lot (its purchase's box, the pieces
 * corrections took of it): for lots no replay made, the backfill's.
 */
export async function holdingsOfRecordedLots(db: Db): Promise<{ holdings: string[]; holdingRows: ReplayedHolding[] }> {
  const lots = await rawRows<{ productId: number; box: number | null; euro: string | null; php: string | null; pieces: number; left: number; writtenOff: number }>(
    db,
    sql`select l.product_id as "productId", pr.box_id as box, l.unit_cost_euro as euro, l.unit_cost_php as php, l.pieces, l.pieces_left as left,
          coalesce((select -sum(c.pieces) from stock_record_cost c join stock_record r on r.id = c.stock_record_id
                    where c.lot_id = l.id and c.order_item_id is null and r.type = 'INVENTORY_CORRECTION'), 0)::int as "writtenOff"
        from stock_lot l left join purchase_record pr on pr.id = l.purchase_record_id`,
  );
  return holdingsOf(
    db,
    lots.map((lot) => ({ ...lot, euro: lot.euro === null ? null : new Decimal(lot.euro), php: lot.php === null ? null : new Decimal(lot.php) })),
  );
}

/**
 * What the lots hold per category and box as stored, in the lines of text of the replay's holdings: `stock_holding`
 * and the changes not yet folded into it, or with `folded`, the table alone.
 */
export async function holdingsAsStored(db: Db, options: { folded?: boolean } = {}): Promise<string[]> {
  const rows = await rawRows<{ category_id: number; box_id: number; pieces_bought: number; pieces_left: number; cost_left_euro: string; cost_left_php: string; unknown_cost_pieces_left: number; pieces_written_off: number }>(
    db,
    options.folded
      ? sql`select * from stock_holding`
      : sql`select category_id, box_id, sum(pieces_bought)::int as pieces_bought, sum(pieces_left)::int as pieces_left, sum(cost_left_euro) as cost_left_euro,
              sum(cost_left_php) as cost_left_php, sum(unknown_cost_pieces_left)::int as unknown_cost_pieces_left, sum(pieces_written_off)::int as pieces_written_off
            from (select category_id, box_id, pieces_bought, pieces_left, cost_left_euro, cost_left_php, unknown_cost_pieces_left, pieces_written_off from stock_holding
                  union all
                  select category_id, box_id, pieces_bought, pieces_left, cost_left_euro, cost_left_php, unknown_cost_pieces_left, pieces_written_off from stock_holding_change) h
            group by category_id, box_id`,
  );
  return rows
    .map((row) =>
      holdingLine(`${row.category_id} ${row.box_id}`, {
        bought: row.pieces_bought,
        left: row.pieces_left,
        euro: new Decimal(row.cost_left_euro),
        php: new Decimal(row.cost_left_php),
        unknown: row.unknown_cost_pieces_left,
        writtenOff: row.pieces_written_off,
      }),
    )
    .filter((line) => line !== null)
    .sort();
}

/** The lots as recorded, in the order they are taken (per product by `booked_at`, then id), shaped as the replay's. */
export async function recordedLots(db: Db, productIds: readonly number[]): Promise<ReplayedLot[]> {
  return rawRows<ReplayedLot>(
    db,
    sql`select product_id as "productId", unit_cost_euro::text as "unitCostEuro", unit_cost_php::text as "unitCostPhp", pieces, pieces_left as "piecesLeft"
        from stock_lot where ${ofProducts("product_id", productIds)} order by product_id, booked_at, id`,
  );
}

/** What each order line holds as recorded: minus the sum of its cost rows. */
export async function recordedLines(db: Db, productIds: readonly number[]): Promise<Map<number, ReplayedLine>> {
  const rows = await rawRows<{ orderItemId: number; costEuro: string; costPhp: string; unknownCostPieces: number; pieces: number }>(
    db,
    sql`select c.order_item_id as "orderItemId", (-coalesce(sum(c.cost_euro), 0))::numeric(12,2)::text as "costEuro",
          (-coalesce(sum(c.cost_php), 0))::numeric(12,2)::text as "costPhp",
          (-coalesce(sum(c.pieces) filter (where c.cost_euro is null), 0))::int as "unknownCostPieces", (-sum(c.pieces))::int as pieces
        from stock_record_cost c join stock_lot l on l.id = c.lot_id
        where c.order_item_id is not null and ${ofProducts("l.product_id", productIds)} group by c.order_item_id`,
  );
  return new Map(rows.map(({ orderItemId, ...line }) => [orderItemId, line]));
}

/** Products whose lots' pieces left do not add up to their stock, as [id, stock, pieces left]. */
export async function lotsNotHoldingStock(db: Db, productIds?: readonly number[]): Promise<[number, number, number][]> {
  const rows = await rawRows<{ id: number; stock: number; left: number }>(
    db,
    sql`select p.id, p.stock, coalesce(l.left, 0)::int as left from product p
        left join (select product_id, sum(pieces_left) as left from stock_lot group by product_id) l on l.product_id = p.id
        where p.stock <> coalesce(l.left, 0)${productIds ? sql` and ${ofProducts("p.id", productIds)}` : sql``} order by p.id`,
  );
  return rows.map((row) => [row.id, row.stock, row.left]);
}
