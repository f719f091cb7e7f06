import "server-only";
import { Decimal } from "decimal.js";
import { sql } from "drizzle-orm";
import type { BoxStatus } from "@/lib/enums";
import type { Db } from "@/server/db/client";
import { rawRows } from "@/server/db/raw-rows";
import { currentHoldings } from "@/server/stock/holdings";
import type { StockValuation, StockValue } from "./schemas";

/**
 * The stock at cost: every lot's pieces left at its unit cost (first bought first sold as stock/cost-layers.ts keeps
 * the lots), in total, per category of the product and per box the purchase came in, read from what the lots hold per
 * category and box (`stock_holding` and its changes not yet folded in, stock/holdings.ts: a few hundred rows, however
 * many lots). Pieces whose cost is
 * unknown (found by a correction, or older stock no purchase is left for) are counted apart and valued at nothing, so
 * the owner sees how much of the stock the value leaves out.
 */
export async function stockValuation(db: Db): Promise<StockValuation> {
  const holdings = await readHoldings(db);
  const total = holdings.reduce((sum, row) => addValue(sum, row), emptyValue());
  const categories = new Map<number | null, StockValuation["categories"][number]>();
  const boxes = new Map<number | null, StockValuation["boxes"][number]>();
  for (const row of holdings) {
    if (row.piecesLeft === 0) continue;
    const category = categories.get(row.categoryId) ?? { categoryId: row.categoryId, category: row.category, ...emptyValue() };
    categories.set(row.categoryId, { ...category, ...addValue(category, row) });
    const box = boxes.get(row.boxId) ?? { boxId: row.boxId, boxStatus: row.boxStatus, boxCreatedAt: row.boxCreatedAt, ...emptyValue() };
    boxes.set(row.boxId, { ...box, ...addValue(box, row) });
  }
  return {
    total,
    categories: [...categories.values()].sort((a, b) => b.valueEuro.comparedTo(a.valueEuro) || b.pieces - a.pieces || a.category.localeCompare(b.category)),
    boxes: [...boxes.values()].sort(newestBoxFirst),
  };
}

/** One row of `stock_holding` with its category's name and its box. */
export type Holding = {
  categoryId: number | null;
  category: string;
  boxId: number | null;
  boxStatus: BoxStatus | null;
  boxCreatedAt: Date | null;
  piecesBought: number;
  piecesLeft: number;
  costLeftEuro: Decimal;
  costLeftPhp: Decimal;
  unknownCostPiecesLeft: number;
  piecesWrittenOff: number;
};

/**
 * Every category and box's holding. A category deleted since (its products moved to none) reads as no category; its
 * rows are added up with that one by the callers.
 */
export async function readHoldings(db: Db): Promise<Holding[]> {
  const rows = await rawRows<{
    category_id: number | null;
    category: string | null;
    box_id: number | null;
    box_status: BoxStatus | null;
    box_created_at: string | Date | null;
    pieces_bought: number;
    pieces_left: number;
    cost_left_euro: string;
    cost_left_php: string;
    unknown_cost_pieces_left: number;
    pieces_written_off: number;
  }>(
    db,
    sql`select c.id as category_id, ${categoryName} as category, nullif(h.box_id, 0) as box_id, b.status as box_status, b.created_at as box_created_at,
               h.pieces_bought, h.pieces_left, h.cost_left_euro::text as cost_left_euro, h.cost_left_php::text as cost_left_php,
               h.unknown_cost_pieces_left, h.pieces_written_off
        from (${currentHoldings}) h
        left join product_category c on c.id = h.category_id
        left join product_category parent on parent.id = c.parent_id
        left join box b on b.id = h.box_id`,
  );
  return rows.map((row) => ({
    categoryId: row.category_id,
    category: row.category ?? NO_CATEGORY,
    boxId: row.box_id,
    boxStatus: row.box_status,
    boxCreatedAt: row.box_created_at ? new Date(row.box_created_at) : null,
    piecesBought: row.pieces_bought,
    piecesLeft: row.pieces_left,
    costLeftEuro: new Decimal(row.cost_left_euro),
    costLeftPhp: new Decimal(row.cost_left_php),
    unknownCostPiecesLeft: row.unknown_cost_pieces_left,
    piecesWrittenOff: row.pieces_written_off,
  }));
}

const emptyValue = (): StockValue => ({ pieces: 0, valueEuro: new Decimal(0), valuePhp: new Decimal(0), unknownCostPieces: 0 });

function addValue(sum: StockValue, row: Holding): StockValue {
  return {
    pieces: sum.pieces + row.piecesLeft,
    valueEuro: sum.valueEuro.plus(row.costLeftEuro),
    valuePhp: sum.valuePhp.plus(row.costLeftPhp),
    unknownCostPieces: sum.unknownCostPieces + row.unknownCostPiecesLeft,
  };
}

/** What a row with no category is called. */
export const NO_CATEGORY = "No category";

/** A category as the owner reads it: "Parent › Child", or its own name at the top. */
const categoryName = sql`case when parent.name is null then c.name else parent.name || ' › ' || c.name end`;

/** Boxes newest first; pieces that came in no box (found, or older stock) last. */
export function newestBoxFirst(a: { boxId: number | null }, b: { boxId: number | null }): number {
  if (a.boxId === null || b.boxId === null) return (a.boxId === null ? 1 : 0) - (b.boxId === null ? 1 : 0);
  return b.boxId - a.boxId;
}
