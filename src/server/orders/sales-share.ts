import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { moneyBackRefundStatuses } from "@/lib/enums";
import { SHOP_TIME_ZONE } from "@/lib/shop-clock";
import { paidOrderStatuses } from "./order-machine";

/*
 * What one order adds to the owner's figures now (`order_sales_share`, db/schema/sales.ts), worked out by the database
 * from the order tables as they stand, so that the live path (one order, sales-rollup.ts) and the backfill (every
 * order at once) are the same query and cannot disagree. Only a sale has a share: paid and not cancelled since. It
 * counts on the shop-time day of `soldAt`, with its refunds whenever they were given, through its channel (EBAY for
 * an eBay order, MANUAL for one staff placed, else WEBSHOP) and the country it ships to ('' without an address).
 *
 * The figures are those of the margins (margins/order-margin.ts, monthly-margins.ts): revenue is what the lines were
 * paid after every discount; pieces are those the customer kept (a refund that booked pieces back into stock took
 * them out); the purchase cost is what the line's pieces took from the stock lots as `bookStock` recorded it
 * (`stock_record_cost`, negative when taken, so minus their sum), pieces from lots of unknown cost counted apart;
 * refunds and their providers' fees count only while they give money back (PENDING, REFUNDED). Money is written as
 * text with two decimals, so that the share compares and adds up exactly.
 */

/**
 * The figures all three rollups add up, in this order: orders, pieces, revenue, purchase cost in euro and in peso,
 * pieces of unknown cost, refunds. A share holds them as arrays, its categories and products with their id first:
 * a million orders' shares take 550 MB instead of the 940 MB they take with the names spelled out.
 */
type ShareFigures = [orders: number, pieces: number, revenue: string, costEuro: string, costPhp: string, unknownCostPieces: number, refunds: string];

/** One order's share, as stored in `order_sales_share.share`; JSON null for an order that is not a sale. */
export type SalesShare = {
  /** Shop-time day the order was paid, and the first day of its month. */
  day: string;
  month: string;
  channel: "WEBSHOP" | "EBAY" | "MANUAL";
  countryCode: string;
  /** The order's figures, then its shipping, providers' fees and label cost. */
  order: [...ShareFigures, shipping: string, providerFees: string, labelCost: string];
  categories: [categoryId: number, ...ShareFigures][];
  products: [productId: number, ...ShareFigures][];
};

const list = (values: readonly string[]) => sql.raw(values.map((value) => `'${value}'`).join(", "));
const soldStatuses = list(paidOrderStatuses);
const givingBack = list(moneyBackRefundStatuses);

const money = (amount: SQL) => sql`(${amount})::numeric(12, 2)::text`;

/** The figures of a group of the order's lines (`l`), after the group's id, as a jsonb array. */
const lineFigures = (id: SQL) => sql`jsonb_build_array(${id}, 1, sum(l.pieces)::int, ${money(sql`sum(l.revenue)`)}, ${money(sql`sum(l.cost_euro)`)},
  ${money(sql`sum(l.cost_php)`)}, sum(l.unknown_cost_pieces)::int, ${money(sql`sum(l.refunds)`)})`;

/**
 * `(order_id, share)` of every sale among the orders `which` selects (a condition on `o`, the order): the query both
 * the live path and the backfill run.
 */
export function salesShares(which: SQL): SQL {
  return sql`
    with sold as (
      select o.id as order_id,
        (o.sold_at at time zone ${SHOP_TIME_ZONE})::date as day,
        case when od.shop = 'EBAY' then 'EBAY' when od.placed_by_staff then 'MANUAL' else 'WEBSHOP' end as channel,
        coalesce(address.country_code, '') as country_code,
        coalesce(payment.shipping, 0) as shipping, coalesce(payment.fees, 0) as payment_fees, coalesce(od.label_cost, 0) as label_cost
      from "order" o
      join order_detail od on od.order_id = o.id
      left join lateral (select country_code from order_address where order_id = o.id order by id limit 1) address on true
      left join lateral (select sum(shipping_total) as shipping, sum(provider_fees) as fees from payment_detail where order_id = o.id) payment on true
      where o.status in (${soldStatuses}) and o.sold_at is not null and (${which})
    ),
    l as (
      select oi.order_id, oi.product_id, coalesce(p.category_id, 0) as category_id, oi.total_price as revenue,
        greatest(0, oi.quantity - least(oi.quantity, coalesce(restocked.pieces, 0))) as pieces,
        coalesce(cost.euro, 0) as cost_euro, coalesce(cost.php, 0) as cost_php, coalesce(cost.unknown, 0) as unknown_cost_pieces,
        coalesce(line_refunds.amount, 0) as refunds
      from sold
      join order_item oi on oi.order_id = sold.order_id
      join product p on p.id = oi.product_id
      left join lateral (
        select -sum(cost_euro) as euro, -sum(cost_php) as php, -sum(pieces) filter (where cost_euro is null) as unknown
        from stock_record_cost where order_item_id = oi.id
      ) cost on true
      left join lateral (
        select sum(r.amount) as amount from refund r where r.refunded_order_item_id = oi.id and r.status in (${givingBack})
      ) line_refunds on true
      left join lateral (
        -- Pieces of the line back in stock: a refund's restock, or an eBay return received (margins' lineCosts reads the same).
        select sum(sr.quantity) as pieces from stock_record sr where sr.order_item_id = oi.id and sr.type = 'REFUND'
      ) restocked on true
    ),
    per_order as (
      select order_id, sum(pieces) as pieces, sum(revenue) as revenue, sum(cost_euro) as cost_euro, sum(cost_php) as cost_php,
        sum(unknown_cost_pieces) as unknown_cost_pieces
      from l group by order_id
    ),
    per_category as (
      select order_id, jsonb_agg(figures order by category_id) as categories from (
        select l.order_id, l.category_id, ${lineFigures(sql`l.category_id`)} as figures
        from l group by l.order_id, l.category_id
      ) c group by order_id
    ),
    per_product as (
      select order_id, jsonb_agg(figures order by product_id) as products from (
        select l.order_id, l.product_id, ${lineFigures(sql`l.product_id`)} as figures
        from l group by l.order_id, l.product_id
      ) c group by order_id
    ),
    order_refunds as (
      select r.order_id, sum(r.amount) as amount, sum(coalesce(r.provider_fees, 0)) as fees
      from sold join refund r on r.order_id = sold.order_id
      where r.status in (${givingBack})
      group by r.order_id
    )
    select sold.order_id as "orderId", jsonb_build_object(
        'day', to_char(sold.day, 'YYYY-MM-DD'), 'month', to_char(date_trunc('month', sold.day), 'YYYY-MM-DD'),
        'channel', sold.channel, 'countryCode', sold.country_code,
        'order', jsonb_build_array(1, coalesce(per_order.pieces, 0)::int, ${money(sql`coalesce(per_order.revenue, 0)`)},
          ${money(sql`coalesce(per_order.cost_euro, 0)`)}, ${money(sql`coalesce(per_order.cost_php, 0)`)}, coalesce(per_order.unknown_cost_pieces, 0)::int,
          ${money(sql`coalesce(order_refunds.amount, 0)`)}, ${money(sql`sold.shipping`)}, ${money(sql`sold.payment_fees + coalesce(order_refunds.fees, 0)`)},
          ${money(sql`sold.label_cost`)}),
        'categories', coalesce(per_category.categories, '[]'::jsonb),
        'products', coalesce(per_product.products, '[]'::jsonb)
      ) as share
    from sold
    left join per_order on per_order.order_id = sold.order_id
    left join per_category on per_category.order_id = sold.order_id
    left join per_product on per_product.order_id = sold.order_id
    left join order_refunds on order_refunds.order_id = sold.order_id`;
}
