import "server-only";
import { sql } from "drizzle-orm";
import type { BoxStatus } from "@/lib/enums";
import type { Db } from "@/server/db/client";
import { rawRows } from "@/server/db/raw-rows";
import { rateOf } from "./figures";
import type { SellThrough, SellThroughReport } from "./schemas";
import { newestBoxFirst, NO_CATEGORY, perGroup } from "./stock-valuation";

/**
 * Sell-through per category and per box: of the pieces received (every lot's pieces), how many are left, how many a
 * correction took (lost, damaged: the lot's cost rows of INVENTORY_CORRECTION ledger rows), and the rest, sold. Pieces a
 * refund put back are in stock again, so they count as left, not sold. The rate is sold over received.
 */
export async function sellThrough(db: Db): Promise<SellThroughReport> {
  // The lots with what corrections took of them: cost rows that belong to no order line (few, and found through the
  // order-line index's nulls) of corrections; a line removed from a manual order also leaves rows without a line, its
  // pieces taken and given back, which are no write-off.
  const lots = sql`stock_lot l left join (
                     select c.lot_id, -sum(c.pieces) as pieces from stock_record_cost c join stock_record r on r.id = c.stock_record_id
                     where c.order_item_id is null and r.type = 'INVENTORY_CORRECTION' group by c.lot_id
                   ) w on w.lot_id = l.id`;
  const measures = sql`sum(l.pieces)::int as received, sum(l.pieces_left)::int as left, coalesce(sum(w.pieces), 0)::int as written_off`;
  const [categories, boxes] = await Promise.all([
    rawRows<ThroughRow & { category_id: number | null; category: string | null }>(db, perGroup("category", measures, lots)),
    rawRows<ThroughRow & { box_id: number | null; box_status: BoxStatus | null; box_created_at: string | Date | null }>(db, perGroup("box", measures, lots)),
  ]);
  const figures = (row: ThroughRow): SellThrough => {
    const sold = row.received - row.left - row.written_off;
    return { received: row.received, sold, writtenOff: row.written_off, left: row.left, rate: rateOf(sold, row.received) };
  };
  return {
    categories: categories
      .map((row) => ({ categoryId: row.category_id, category: row.category ?? NO_CATEGORY, ...figures(row) }))
      .sort((a, b) => b.received - a.received || a.category.localeCompare(b.category)),
    boxes: boxes
      .map((row) => ({ boxId: row.box_id, boxStatus: row.box_status, boxCreatedAt: row.box_created_at ? new Date(row.box_created_at) : null, ...figures(row) }))
      .sort(newestBoxFirst),
  };
}

type ThroughRow = { received: number; left: number; written_off: number };
