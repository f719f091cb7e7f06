import "server-only";
import { Decimal } from "decimal.js";
import { sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { rawRows } from "@/server/db/raw-rows";

/** What an order line's pieces cost, as recorded when they left stock (stock/cost-layers.ts). */
export type LineCost = {
  /** The purchase cost of the pieces the line still holds: minus the sum of its `stock_record_cost` rows of known cost. */
  costEuro: Decimal;
  costPhp: Decimal;
  /** Pieces the line holds that came from a lot of unknown cost (found by a correction): counted apart, never priced. */
  unknownCostPieces: number;
  /** Pieces restocking refunds put back into stock: the line's REFUND rows in the ledger. */
  restockedPieces: number;
};

const NOTHING: LineCost = { costEuro: new Decimal(0), costPhp: new Decimal(0), unknownCostPieces: 0, restockedPieces: 0 };

/**
 * The recorded cost of each of these order lines, read through the costs' and the ledger's order-line indexes: no
 * purchase, no other sale and no FIFO worked out again. A line with no rows costs nothing.
 */
export async function lineCosts(db: Db, orderItemIds: readonly number[]): Promise<Map<number, LineCost>> {
  if (orderItemIds.length === 0) return new Map();
  const ids = sql`${`{${orderItemIds.join(",")}}`}::int[]`;
  const rows = await rawRows<{ orderItemId: number; costEuro: string | null; costPhp: string | null; unknownCostPieces: number | null; restockedPieces: number | null }>(
    db,
    sql`select i.id as "orderItemId", c.cost_euro as "costEuro", c.cost_php as "costPhp", c.unknown_cost_pieces as "unknownCostPieces", r.restocked as "restockedPieces"
        from unnest(${ids}) as i(id)
        left join (
          select order_item_id, -coalesce(sum(cost_euro), 0) as cost_euro, -coalesce(sum(cost_php), 0) as cost_php,
            (-coalesce(sum(pieces) filter (where cost_euro is null), 0))::int as unknown_cost_pieces
          from stock_record_cost where order_item_id = any(${ids}) group by order_item_id
        ) c on c.order_item_id = i.id
        left join (
          select order_item_id, sum(quantity)::int as restocked from stock_record
          where order_item_id = any(${ids}) and type = 'REFUND' group by order_item_id
        ) r on r.order_item_id = i.id`,
  );
  return new Map(
    rows.map((row) => [
      row.orderItemId,
      {
        costEuro: row.costEuro === null ? NOTHING.costEuro : new Decimal(row.costEuro),
        costPhp: row.costPhp === null ? NOTHING.costPhp : new Decimal(row.costPhp),
        unknownCostPieces: row.unknownCostPieces ?? 0,
        restockedPieces: Math.max(0, row.restockedPieces ?? 0),
      },
    ]),
  );
}
