import "server-only";
import { sql } from "drizzle-orm";
import type { BoxStatus } from "@/lib/enums";
import type { Db } from "@/server/db/client";
import { rawRows } from "@/server/db/raw-rows";
import { rateOf } from "./figures";
import type { SellThrough, SellThroughReport } from "./schemas";
import { categoryName, newestBoxFirst, NO_CATEGORY } from "./stock-valuation";

/**
 * Sell-through per category and per box: of the pieces received (every lot's pieces), how many are left, how many a
 * correction took (lost, damaged: the lot's cost rows that belong to no order line), and the rest, sold. Pieces a
 * refund put back are in stock again, so they count as left, not sold. The rate is sold over received.
 */
export async function sellThrough(db: Db): Promise<SellThroughReport> {
  const rows = await rawRows<{
    grouped: number;
    category_id: number | null;
    box_id: number | null;
    received: number;
    left: number;
    written_off: number;
    category: string | null;
    box_status: BoxStatus | null;
    box_created_at: string | Date | null;
  }>(
    db,
    sql`with written_off as (
          select lot_id, -sum(pieces) as pieces from stock_record_cost where order_item_id is null and pieces < 0 group by lot_id
        ), sums as (
          select grouping(p.category_id, pr.box_id)::int as grouped, p.category_id, pr.box_id,
                 sum(l.pieces)::int as received, sum(l.pieces_left)::int as left,
                 coalesce(sum(w.pieces), 0)::int as written_off
          from stock_lot l
          join product p on p.id = l.product_id
          left join purchase_record pr on pr.id = l.purchase_record_id
          left join written_off w on w.lot_id = l.id
          group by grouping sets ((p.category_id), (pr.box_id))
        )
        select s.*, ${categoryName} as category, b.status as box_status, b.created_at as box_created_at
        from sums s
        left join product_category c on c.id = s.category_id
        left join product_category parent on parent.id = c.parent_id
        left join box b on b.id = s.box_id`,
  );
  const figures = (row: (typeof rows)[number]): SellThrough => {
    const sold = row.received - row.left - row.written_off;
    return { received: row.received, sold, writtenOff: row.written_off, left: row.left, rate: rateOf(sold, row.received) };
  };
  return {
    categories: rows
      .filter((row) => row.grouped === 1)
      .map((row) => ({ categoryId: row.category_id, category: row.category ?? NO_CATEGORY, ...figures(row) }))
      .sort((a, b) => b.received - a.received || a.category.localeCompare(b.category)),
    boxes: rows
      .filter((row) => row.grouped === 2)
      .map((row) => ({ boxId: row.box_id, boxStatus: row.box_status, boxCreatedAt: row.box_created_at ? new Date(row.box_created_at) : null, ...figures(row) }))
      .sort(newestBoxFirst),
  };
}
