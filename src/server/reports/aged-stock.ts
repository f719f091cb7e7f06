import "server-only";
import { Decimal } from "decimal.js";
import { sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { rawRows } from "@/server/db/raw-rows";
import { ageBuckets, type AgedLot, type AgedStock, type AgedStockInput } from "./schemas";

/**
 * Aged stock: how long each lot with pieces left has been in stock, counted from the moment it was booked in
 * (`stock_lot.booked_at`), in whole days. The pieces and money tied up per bucket (0–30 days ... over a year), and the
 * lots themselves oldest first, a page at a time, with their product and box.
 */
export async function agedStock(db: Db, input: Required<AgedStockInput>, now = new Date()): Promise<AgedStock> {
  const [buckets, lots] = await Promise.all([
    rawRows<{ bucket: number; lots: number; pieces: number; value_euro: string; value_php: string; unknown_cost_pieces: number }>(
      db,
      sql`select ${bucketOf(now)} as bucket,
                 count(*)::int as lots, sum(l.pieces_left)::int as pieces,
                 coalesce(sum(l.pieces_left * l.unit_cost_euro), 0)::text as value_euro,
                 coalesce(sum(l.pieces_left * l.unit_cost_php), 0)::text as value_php,
                 coalesce(sum(l.pieces_left) filter (where l.unit_cost_euro is null), 0)::int as unknown_cost_pieces
          from stock_lot l where l.pieces_left > 0 group by 1`,
    ),
    agedLots(db, { limit: input.pageSize, offset: (input.page - 1) * input.pageSize }, now),
  ]);
  const found = new Map(buckets.map((row) => [row.bucket, row]));
  return {
    buckets: ageBuckets.map((bucket, index) => {
      const row = found.get(index);
      return {
        key: bucket.key,
        label: bucket.label,
        lots: row?.lots ?? 0,
        pieces: row?.pieces ?? 0,
        valueEuro: new Decimal(row?.value_euro ?? 0),
        valuePhp: new Decimal(row?.value_php ?? 0),
        unknownCostPieces: row?.unknown_cost_pieces ?? 0,
      };
    }),
    lots,
    totalLots: buckets.reduce((total, row) => total + row.lots, 0),
    page: input.page,
    pageSize: input.pageSize,
  };
}

/**
 * The index in `ageBuckets` of a lot's age at `now`: a lot is at most N whole days old when it was booked in after
 * `now` less N + 1 days. Compared as timestamps, so the index of each lot costs a comparison, not a date calculation
 * (which took most of the report's time over 186,000 lots).
 */
function bucketOf(now: Date) {
  const limits = ageBuckets.flatMap((bucket, index) => {
    if (bucket.upTo === null) return [];
    const after = new Date(now.getTime() - (bucket.upTo + 1) * DAY);
    return [sql`when l.booked_at > ${after.toISOString()}::timestamptz then ${sql.raw(String(index))}`];
  });
  return sql`case ${sql.join(limits, sql` `)} else ${sql.raw(String(ageBuckets.length - 1))} end`;
}

const DAY = 86_400_000;

/**
 * Lots with pieces left, oldest first (then by id, the order first bought first sold takes them in): a page of them,
 * or, for the CSV, those after the last one read (`after`).
 */
export async function agedLots(db: Db, window: { limit: number; offset?: number; after?: { bookedAt: Date; lotId: number } }, now = new Date()): Promise<AgedLot[]> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const after = window.after ? sql`and (l.booked_at, l.id) > (${window.after.bookedAt.toISOString()}::timestamptz, ${window.after.lotId}::int)` : sql``;
  const rows = await rawRows<{
    lot_id: number;
    product_id: number;
    product_name: string;
    box_id: number | null;
    booked_at: string | Date;
    days_in_stock: number;
    pieces_left: number;
    unit_cost_euro: string | null;
  }>(
    db,
    sql`select l.id as lot_id, l.product_id, p.name as product_name, pr.box_id, l.booked_at,
               floor(extract(epoch from (${at} - l.booked_at)) / 86400)::int as days_in_stock,
               l.pieces_left, l.unit_cost_euro::text as unit_cost_euro
        from stock_lot l
        join product p on p.id = l.product_id
        left join purchase_record pr on pr.id = l.purchase_record_id
        where l.pieces_left > 0 ${after}
        order by l.booked_at, l.id
        limit ${window.limit} offset ${window.offset ?? 0}`,
  );
  return rows.map((row) => {
    const unitCostEuro = row.unit_cost_euro === null ? null : new Decimal(row.unit_cost_euro);
    return {
      lotId: row.lot_id,
      productId: row.product_id,
      productName: row.product_name,
      boxId: row.box_id,
      bookedAt: new Date(row.booked_at),
      daysInStock: row.days_in_stock,
      piecesLeft: row.pieces_left,
      unitCostEuro,
      valueEuro: unitCostEuro?.times(row.pieces_left) ?? null,
    };
  });
}
