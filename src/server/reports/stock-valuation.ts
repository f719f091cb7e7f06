import "server-only";
import { Decimal } from "decimal.js";
import { sql } from "drizzle-orm";
import type { BoxStatus } from "@/lib/enums";
import type { Db } from "@/server/db/client";
import { rawRows } from "@/server/db/raw-rows";
import type { StockValuation, StockValue } from "./schemas";

/**
 * The stock at cost: every lot's pieces left at its unit cost (`stock_lot`, first bought first sold as wp-cost keeps
 * it), in total, per category of the product and per box the purchase came in. Pieces whose cost is unknown (found by
 * a correction, or older stock no purchase is left for) are counted apart and valued at nothing, so the owner sees
 * how much of the stock the value leaves out. One pass over the lots with pieces left, grouped three ways at once.
 */
export async function stockValuation(db: Db): Promise<StockValuation> {
  const rows = await rawRows<ValueRow>(
    db,
    sql`with sums as (
          select grouping(p.category_id, pr.box_id)::int as grouped, p.category_id, pr.box_id,
                 sum(l.pieces_left)::int as pieces,
                 coalesce(sum(l.pieces_left * l.unit_cost_euro), 0)::text as value_euro,
                 coalesce(sum(l.pieces_left * l.unit_cost_php), 0)::text as value_php,
                 coalesce(sum(l.pieces_left) filter (where l.unit_cost_euro is null), 0)::int as unknown_cost_pieces
          from stock_lot l
          join product p on p.id = l.product_id
          left join purchase_record pr on pr.id = l.purchase_record_id
          where l.pieces_left > 0
          group by grouping sets ((p.category_id), (pr.box_id), ())
        )
        select s.*, ${categoryName} as category, b.status as box_status, b.created_at as box_created_at
        from sums s
        left join product_category c on c.id = s.category_id
        left join product_category parent on parent.id = c.parent_id
        left join box b on b.id = s.box_id`,
  );
  const total = rows.find((row) => row.grouped === 3);
  return {
    total: total ? valueOf(total) : { pieces: 0, valueEuro: new Decimal(0), valuePhp: new Decimal(0), unknownCostPieces: 0 },
    categories: rows
      .filter((row) => row.grouped === 1)
      .map((row) => ({ categoryId: row.category_id, category: row.category ?? NO_CATEGORY, ...valueOf(row) }))
      .sort((a, b) => b.valueEuro.comparedTo(a.valueEuro) || b.pieces - a.pieces || a.category.localeCompare(b.category)),
    boxes: rows
      .filter((row) => row.grouped === 2)
      .map((row) => ({ boxId: row.box_id, boxStatus: row.box_status, boxCreatedAt: row.box_created_at ? new Date(row.box_created_at) : null, ...valueOf(row) }))
      .sort(newestBoxFirst),
  };
}

type ValueRow = {
  grouped: number;
  category_id: number | null;
  box_id: number | null;
  pieces: number;
  value_euro: string;
  value_php: string;
  unknown_cost_pieces: number;
  category: string | null;
  box_status: BoxStatus | null;
  box_created_at: string | Date | null;
};

/** What a row with no category is called. */
export const NO_CATEGORY = "No category";

/** A category as the owner reads it: "Parent › Child", or its own name at the top. */
export const categoryName = sql`case when parent.name is null then c.name else parent.name || ' › ' || c.name end`;

function valueOf(row: Pick<ValueRow, "pieces" | "value_euro" | "value_php" | "unknown_cost_pieces">): StockValue {
  return { pieces: row.pieces, valueEuro: new Decimal(row.value_euro), valuePhp: new Decimal(row.value_php), unknownCostPieces: row.unknown_cost_pieces };
}

/** Boxes newest first; pieces that came in no box (found, or older stock) last. */
export function newestBoxFirst(a: { boxId: number | null }, b: { boxId: number | null }): number {
  if (a.boxId === null || b.boxId === null) return (a.boxId === null ? 1 : 0) - (b.boxId === null ? 1 : 0);
  return b.boxId - a.boxId;
}
