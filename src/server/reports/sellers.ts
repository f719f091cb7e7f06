import "server-only";
import { Decimal } from "decimal.js";
import { sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { rawRows } from "@/server/db/raw-rows";
import { marginOf, ZERO } from "@/server/margins/order-margin";
import type { Seller, Sellers, SellersInput } from "./schemas";

/**
 * Best and worst sellers by margin over a run of shop-time months, from the product-month rollup
 * (`sales_month_product`): per product what its lines were paid, less what the pieces kept cost and the refunds of its
 * lines. Fees, shipping and labels belong to orders, not to a product, so they are not in it (the sales report has
 * them). Sorted by the database on the same formula, best first and worst first.
 */
export async function sellers(db: Db, input: Required<SellersInput>): Promise<Sellers> {
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
    sql`with sums as (
          select product_id, sum(orders)::int as orders, sum(pieces)::int as pieces, sum(revenue) as revenue,
                 sum(cost_euro) as cost_euro, sum(unknown_cost_pieces)::int as unknown_cost_pieces, sum(refunds) as refunds,
                 sum(revenue) - sum(cost_euro) - sum(refunds) as margin
          from sales_month_product
          where month >= ${`${input.from}-01`}::date and month <= ${`${input.to}-01`}::date
          group by product_id
        ), best as (
          select 'best' as side, * from sums order by margin desc, product_id limit ${input.limit}
        ), worst as (
          select 'worst' as side, * from sums order by margin asc, product_id limit ${input.limit}
        )
        select s.side, s.product_id, p.name as product_name, s.orders, s.pieces, s.revenue::text as revenue,
               s.cost_euro::text as cost_euro, s.unknown_cost_pieces, s.refunds::text as refunds
        from (select * from best union all select * from worst) s
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
    from: input.from,
    to: input.to,
    best: rows.filter((row) => row.side === "best").map(sellerOf),
    worst: rows.filter((row) => row.side === "worst").map(sellerOf),
  };
}
