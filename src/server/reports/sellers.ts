import "server-only";
import { Decimal } from "decimal.js";
import { sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { rawRows } from "@/server/db/raw-rows";
import { marginOf, ZERO } from "@/server/margins/order-margin";
import type { Seller, Sellers, SellersInput } from "./schemas";

/**
 * Best and worst sellers by margin over a shop-time month, quarter or year: per product what its lines were paid, less
 * what the pieces kept cost and the refunds of its lines. Fees, shipping and labels belong to orders, not to a product,
 * so they are not in it (the sales report has them). Read from the product rollups, which store each product's margin
 * in the period (`sales_month_product` per month, `sales_period_product` per quarter and year): the best and the worst
 * are the two ends of an index on (period, margin), read a few rows deep, whatever the number of products sold. A
 * product whose orders in the period were all cancelled since (nothing left of them) is no seller.
 */
export async function sellers(db: Db, input: Required<SellersInput>): Promise<Sellers> {
  const { period } = input;
  const rollup = /^\d{4}-\d{2}$/.test(period)
    ? sql`sales_month_product where month = ${`${period}-01`}::date`
    : sql`sales_period_product where period = ${period}`;
  const ranked = (direction: "desc" | "asc") =>
    sql`(select product_id, orders, pieces, revenue, cost_euro, unknown_cost_pieces, refunds, margin from ${rollup} and orders > 0
         order by margin ${sql.raw(direction)}, product_id limit ${input.limit})`;
  const rows = await rawRows<{
    side: "best" | "worst";
    product_id: number;
    product_name: string;
    orders: number;
    pieces: number;
    revenue: string;
    cost_euro: string;
    unknown_cost_pieces: number;
    refunds: string;
  }>(
    db,
    sql`select s.side, s.product_id, p.name as product_name, s.orders, s.pieces, s.revenue::text as revenue,
               s.cost_euro::text as cost_euro, s.unknown_cost_pieces, s.refunds::text as refunds
        from (select 'best' as side, * from ${ranked("desc")} best union all select 'worst', * from ${ranked("asc")} worst) s
        join product p on p.id = s.product_id
        order by s.side, case when s.side = 'best' then -s.margin else s.margin end, s.product_id`,
  );
  const sellerOf = (row: (typeof rows)[number]): Seller => {
    const figures = { revenue: new Decimal(row.revenue), purchaseCost: new Decimal(row.cost_euro), refunds: new Decimal(row.refunds) };
    return {
      productId: row.product_id,
      productName: row.product_name,
      orders: row.orders,
      pieces: row.pieces,
      unknownCostPieces: row.unknown_cost_pieces,
      ...figures,
      margin: marginOf({ ...figures, paid: figures.revenue, providerFees: ZERO, labelCost: ZERO }),
    };
  };
  return {
    period,
    best: rows.filter((row) => row.side === "best").map(sellerOf),
    worst: rows.filter((row) => row.side === "worst").map(sellerOf),
  };
}
