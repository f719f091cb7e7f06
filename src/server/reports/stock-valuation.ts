import "server-only";
import { Decimal } from "decimal.js";
import { sql, type SQL } from "drizzle-orm";
import type { BoxStatus } from "@/lib/enums";
import type { Db } from "@/server/db/client";
import { rawRows } from "@/server/db/raw-rows";
import type { StockValuation, StockValue } from "./schemas";

/**
 * The stock at cost: every lot's pieces left at its unit cost (`stock_lot`, first bought first sold as
 * stock/cost-layers.ts keeps it), in total, per category of the product and per box the purchase came in. Pieces
 * whose cost is unknown (found by a correction, or older stock no purchase is left for) are counted apart and valued
 * at nothing, so the owner sees how much of the stock the value leaves out. The sums per category and per box are two queries at once, each on a
 * connection of its own, so that the database adds them up side by side; the total is the categories' added up.
 */
export async function stockValuation(db: Db): Promise<StockValuation> {
  const [categories, boxes] = await Promise.all([valueSums(db, "category"), valueSums(db, "box")]);
  // Every lot is in one category row (no category is a row too): the total is theirs added up, not a third query.
  const total = categories.map(valueOf).reduce(
    (sum, value) => ({
      pieces: sum.pieces + value.pieces,
      valueEuro: sum.valueEuro.plus(value.valueEuro),
      valuePhp: sum.valuePhp.plus(value.valuePhp),
      unknownCostPieces: sum.unknownCostPieces + value.unknownCostPieces,
    }),
    { pieces: 0, valueEuro: new Decimal(0), valuePhp: new Decimal(0), unknownCostPieces: 0 },
  );
  return {
    total,
    categories: categories
      .map((row) => ({ categoryId: row.category_id, category: row.category ?? NO_CATEGORY, ...valueOf(row) }))
      .sort((a, b) => b.valueEuro.comparedTo(a.valueEuro) || b.pieces - a.pieces || a.category.localeCompare(b.category)),
    boxes: boxes
      .map((row) => ({ boxId: row.box_id, boxStatus: row.box_status, boxCreatedAt: row.box_created_at ? new Date(row.box_created_at) : null, ...valueOf(row) }))
      .sort(newestBoxFirst),
  };
}

/** The lots' sums (`lots`: a FROM clause naming them `l`) per category or per box. */
export function perGroup(by: "category" | "box", measures: SQL, lots: SQL = sql`stock_lot l`, where: SQL = sql`true`): SQL {
  if (by === "category") {
    return sql`select s.*, ${categoryName} as category
               from (select p.category_id, ${measures} from ${lots} join product p on p.id = l.product_id where ${where} group by p.category_id) s
               left join product_category c on c.id = s.category_id
               left join product_category parent on parent.id = c.parent_id`;
  }
  return sql`select s.*, b.status as box_status, b.created_at as box_created_at
             from (select pr.box_id, ${measures} from ${lots} left join purchase_record pr on pr.id = l.purchase_record_id where ${where} group by pr.box_id) s
             left join box b on b.id = s.box_id`;
}

function valueSums(db: Db, by: "category" | "box"): Promise<ValueRow[]> {
  const measures = sql`coalesce(sum(l.pieces_left), 0)::int as pieces,
                       coalesce(sum(l.pieces_left * l.unit_cost_euro), 0)::text as value_euro,
                       coalesce(sum(l.pieces_left * l.unit_cost_php), 0)::text as value_php,
                       coalesce(sum(l.pieces_left) filter (where l.unit_cost_euro is null), 0)::int as unknown_cost_pieces`;
  return rawRows<ValueRow>(db, perGroup(by, measures, sql`stock_lot l`, sql`l.pieces_left > 0`));
}

type ValueRow = {
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
const categoryName = sql`case when parent.name is null then c.name else parent.name || ' › ' || c.name end`;

function valueOf(row: Pick<ValueRow, "pieces" | "value_euro" | "value_php" | "unknown_cost_pieces">): StockValue {
  return { pieces: row.pieces, valueEuro: new Decimal(row.value_euro), valuePhp: new Decimal(row.value_php), unknownCostPieces: row.unknown_cost_pieces };
}

/** Boxes newest first; pieces that came in no box (found, or older stock) last. */
export function newestBoxFirst(a: { boxId: number | null }, b: { boxId: number | null }): number {
  if (a.boxId === null || b.boxId === null) return (a.boxId === null ? 1 : 0) - (b.boxId === null ? 1 : 0);
  return b.boxId - a.boxId;
}
