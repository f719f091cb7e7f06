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
 * the lots), in total, per category of the product and per box the purchase came in, added up by the database from
 * what the lots hold per category and box (`stock_holding` and its changes not yet folded in, stock/holdings.ts),
 * however many lots there are. Pieces whose cost is unknown (found by a correction, or older stock no purchase is left
 * for) are counted apart and valued at nothing, so the owner sees how much of the stock the value leaves out. The
 * categories and the boxes are two queries at once, each on a connection of its own; the total is the categories'.
 */
export async function stockValuation(db: Db): Promise<StockValuation> {
  const [categories, boxes] = await Promise.all([holdingsPerCategory(db), holdingsPerBox(db)]);
  return {
    total: categories.reduce((sum, row) => addValue(sum, row), emptyValue()),
    categories: categories
      .filter((row) => row.piecesLeft > 0)
      .map((row) => ({ categoryId: row.categoryId, category: row.category, ...valueOf(row) }))
      .sort((a, b) => b.valueEuro.comparedTo(a.valueEuro) || b.pieces - a.pieces || a.category.localeCompare(b.category)),
    boxes: boxes
      .filter((row) => row.piecesLeft > 0)
      .map((row) => ({ boxId: row.boxId, boxStatus: row.boxStatus, boxCreatedAt: row.boxCreatedAt, ...valueOf(row) }))
      .sort(newestBoxFirst),
  };
}

/** What the lots of one category or one box hold. */
export type HoldingFigures = {
  piecesBought: number;
  piecesLeft: number;
  costLeftEuro: Decimal;
  costLeftPhp: Decimal;
  unknownCostPiecesLeft: number;
  piecesWrittenOff: number;
};

type FigureRow = {
  pieces_bought: number;
  pieces_left: number;
  cost_left_euro: string;
  cost_left_php: string;
  unknown_cost_pieces_left: number;
  pieces_written_off: number;
};

const figuresText = sql`h.pieces_bought, h.pieces_left, h.cost_left_euro::text as cost_left_euro, h.cost_left_php::text as cost_left_php,
  h.unknown_cost_pieces_left, h.pieces_written_off`;

function figuresOf(row: FigureRow): HoldingFigures {
  return {
    piecesBought: row.pieces_bought,
    piecesLeft: row.pieces_left,
    costLeftEuro: new Decimal(row.cost_left_euro),
    costLeftPhp: new Decimal(row.cost_left_php),
    unknownCostPiecesLeft: row.unknown_cost_pieces_left,
    piecesWrittenOff: row.pieces_written_off,
  };
}

/**
 * What each category's lots hold. A category deleted since (its products moved to none) reads as no category, added
 * up with it.
 */
export async function holdingsPerCategory(db: Db): Promise<(HoldingFigures & { categoryId: number | null; category: string })[]> {
  const rows = await rawRows<FigureRow & { category_id: number | null; category: string | null }>(
    db,
    sql`select c.id as category_id, ${categoryName} as category, ${figuresText}
        from (${currentHoldings(["category_id"])}) h
        left join product_category c on c.id = h.category_id
        left join product_category parent on parent.id = c.parent_id`,
  );
  const found = new Map<number | null, HoldingFigures & { categoryId: number | null; category: string }>();
  for (const row of rows) {
    const before = found.get(row.category_id);
    const figures = figuresOf(row);
    found.set(row.category_id, { categoryId: row.category_id, category: row.category ?? NO_CATEGORY, ...(before ? addFigures(before, figures) : figures) });
  }
  return [...found.values()];
}

/** What each box's lots hold; pieces that came in no box under null. */
export async function holdingsPerBox(db: Db): Promise<(HoldingFigures & { boxId: number | null; boxStatus: BoxStatus | null; boxCreatedAt: Date | null })[]> {
  const rows = await rawRows<FigureRow & { box_id: number | null; box_status: BoxStatus | null; box_created_at: string | Date | null }>(
    db,
    sql`select nullif(h.box_id, 0) as box_id, b.status as box_status, b.created_at as box_created_at, ${figuresText}
        from (${currentHoldings(["box_id"])}) h
        left join box b on b.id = h.box_id`,
  );
  return rows.map((row) => ({ boxId: row.box_id, boxStatus: row.box_status, boxCreatedAt: row.box_created_at ? new Date(row.box_created_at) : null, ...figuresOf(row) }));
}

function addFigures(a: HoldingFigures, b: HoldingFigures): HoldingFigures {
  return {
    piecesBought: a.piecesBought + b.piecesBought,
    piecesLeft: a.piecesLeft + b.piecesLeft,
    costLeftEuro: a.costLeftEuro.plus(b.costLeftEuro),
    costLeftPhp: a.costLeftPhp.plus(b.costLeftPhp),
    unknownCostPiecesLeft: a.unknownCostPiecesLeft + b.unknownCostPiecesLeft,
    piecesWrittenOff: a.piecesWrittenOff + b.piecesWrittenOff,
  };
}

const emptyValue = (): StockValue => ({ pieces: 0, valueEuro: new Decimal(0), valuePhp: new Decimal(0), unknownCostPieces: 0 });

const valueOf = (row: HoldingFigures): StockValue => ({ pieces: row.piecesLeft, valueEuro: row.costLeftEuro, valuePhp: row.costLeftPhp, unknownCostPieces: row.unknownCostPiecesLeft });

function addValue(sum: StockValue, row: HoldingFigures): StockValue {
  const value = valueOf(row);
  return {
    pieces: sum.pieces + value.pieces,
    valueEuro: sum.valueEuro.plus(value.valueEuro),
    valuePhp: sum.valuePhp.plus(value.valuePhp),
    unknownCostPieces: sum.unknownCostPieces + value.unknownCostPieces,
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
