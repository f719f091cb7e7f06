import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { rawRows } from "@/server/db/raw-rows";
import { salesShares, type SalesShare } from "./sales-share";

/*
 * The owner's figures kept up to date with every change of an order (db/schema/sales.ts): `recordSalesShare` runs in
 * the transaction of every change that moves what an order adds to them (paid, cancelled, refunded, a refund failed or
 * tried again, a label bought or voided, a paid order edited), takes the order's stored share out of the rollups
 * (per day, per day and category, per product and month, quarter and year) and adds its share now (sales-share.ts). The backfill writes the shares of every order once, for data from
 * before the rollups, with the same query.
 *
 * Locks: the order's share row first, so two changes of one order take turns and the second reads what the first
 * committed; then the rollup rows, each table in its key's order, so that two orders of the same day never wait for
 * each other in a circle.
 */

/** Every order's share: `{ "old": share or null, "new": share or null }` expanded to signed rows. */
const signedShares = (old: SQL, current: SQL) => sql`
  select -1 as sign, ${old}::jsonb as s where jsonb_typeof(${old}::jsonb) = 'object'
  union all
  select 1, ${current}::jsonb where jsonb_typeof(${current}::jsonb) = 'object'`;

/** The seven figures of the array `f` (sales-share.ts), from its element `first` on, times `sign`, summed. */
const figureSums = (f: string, first: number) => {
  const at = (index: number, type: "int" | "numeric") => `sum(sign * (${f}->>${first + index})::${type})`;
  return sql.raw([at(0, "int"), at(1, "int"), at(2, "numeric"), at(3, "numeric"), at(4, "numeric"), at(5, "int"), at(6, "numeric")].join(", "));
};

const figureColumns = sql.raw(`orders, pieces, revenue, cost_euro, cost_php, unknown_cost_pieces, refunds`);

const addFigures = (table: string) =>
  sql.raw(`orders = ${table}.orders + excluded.orders, pieces = ${table}.pieces + excluded.pieces, revenue = ${table}.revenue + excluded.revenue,
    cost_euro = ${table}.cost_euro + excluded.cost_euro, cost_php = ${table}.cost_php + excluded.cost_php,
    unknown_cost_pieces = ${table}.unknown_cost_pieces + excluded.unknown_cost_pieces, refunds = ${table}.refunds + excluded.refunds, updated_at = now()`);

/**
 * Adds the signed shares `rows` (a query of `sign` and `s`, the share) to the rollups, each table's rows in
 * their key's order.
 */
async function addToRollups(tx: Db, rows: SQL): Promise<void> {
  await tx.execute(sql`
    insert into sales_day (day, channel, country_code, ${figureColumns}, shipping, provider_fees, label_cost)
    select (s->>'day')::date, (s->>'channel')::sales_channel, s->>'countryCode', ${figureSums("(s->'order')", 0)},
      sum(sign * (s->'order'->>7)::numeric), sum(sign * (s->'order'->>8)::numeric), sum(sign * (s->'order'->>9)::numeric)
    from (${rows}) signed group by 1, 2, 3 order by 1, 2, 3
    on conflict (day, channel, country_code) do update set ${addFigures("sales_day")},
      shipping = sales_day.shipping + excluded.shipping, provider_fees = sales_day.provider_fees + excluded.provider_fees,
      label_cost = sales_day.label_cost + excluded.label_cost`);
  await tx.execute(sql`
    insert into sales_day_category (day, channel, country_code, category_id, ${figureColumns})
    select (s->>'day')::date, (s->>'channel')::sales_channel, s->>'countryCode', (c->>0)::int, ${figureSums("c", 1)}
    from (${rows}) signed, jsonb_array_elements(s->'categories') c group by 1, 2, 3, 4 order by 1, 2, 3, 4
    on conflict (day, channel, country_code, category_id) do update set ${addFigures("sales_day_category")}`);
  await tx.execute(sql`
    insert into sales_month_product (month, product_id, ${figureColumns})
    select (s->>'month')::date, (p->>0)::int, ${figureSums("p", 1)}
    from (${rows}) signed, jsonb_array_elements(s->'products') p group by 1, 2 order by 1, 2
    on conflict (month, product_id) do update set ${addFigures("sales_month_product")}`);
  await tx.execute(sql`
    insert into sales_period_product (period, product_id, ${figureColumns})
    select period, (p->>0)::int, ${figureSums("p", 1)}
    from (${rows}) signed, jsonb_array_elements(s->'products') p, ${quarterAndYear(sql`(s->>'month')::date`)}
    group by 1, 2 order by 1, 2
    on conflict (period, product_id) do update set ${addFigures("sales_period_product")}`);
}

/**
 * The quarter ("2026-Q1") and the year ("2026") of the month `month` as two rows of `period`: the product-month's
 * figures count in both (sales_period_product).
 */
const quarterAndYear = (month: SQL) => sql`lateral (values (to_char(${month}, 'YYYY-"Q"Q')), (to_char(${month}, 'YYYY'))) as periods (period)`;

/**
 * Brings the rollups in step with the order as it stands in this transaction: its stored share out, its share now in,
 * and the new share stored. Call it after the change, in the change's transaction.
 */
export async function recordSalesShare(tx: Db, orderId: number): Promise<void> {
  await tx.execute(sql`insert into order_sales_share (order_id, share) values (${orderId}, 'null'::jsonb) on conflict (order_id) do nothing`);
  const [stored] = await rawRows<{ share: SalesShare | null }>(tx, sql`select share from order_sales_share where order_id = ${orderId} for update`);
  const [now] = await rawRows<{ share: SalesShare }>(tx, sql`select share from (${salesShares(sql`o.id = ${orderId}`)}) shares`);
  const old = JSON.stringify(stored?.share ?? null);
  const current = JSON.stringify(now?.share ?? null);
  if (old === current) return;
  await addToRollups(tx, signedShares(sql`${old}`, sql`${current}`));
  await tx.execute(sql`update order_sales_share set share = ${current}::jsonb, updated_at = now() where order_id = ${orderId}`);
}

/**
 * Writes the share of every sale that has none yet and adds them to the rollups: orders written beside the shop's
 * services (the demo seed's bulk history) or before the rollups existed. An order with a share row was added by
 * `recordSalesShare` and is left alone, so a second run adds nothing. Set-based, under a table lock that makes live
 * changes wait: a million orders take about a minute.
 */
export async function recordMissingSalesShares(db: Db): Promise<{ orders: number }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`lock table order_sales_share in exclusive mode`);
    // Grouping a million orders' lines by order: in memory rather than in files.
    await tx.execute(sql`set local work_mem = '256MB'`);
    const unrecorded = sql`not exists (select 1 from order_sales_share recorded where recorded.order_id = o.id)`;
    await tx.execute(sql`drop table if exists unrecorded_sales_share`);
    await tx.execute(sql`create temporary table unrecorded_sales_share on commit drop as select "orderId" as order_id, share from (${salesShares(unrecorded)}) shares`);
    await tx.execute(sql`insert into order_sales_share (order_id, share) select order_id, share from unrecorded_sales_share`);
    await addToRollups(tx, sql`select 1 as sign, share as s from unrecorded_sales_share`);
    const [written] = await rawRows<{ orders: number }>(tx, sql`select count(*)::int as orders from unrecorded_sales_share`);
    return { orders: written?.orders ?? 0 };
  });
}

/**
 * The rollups of the orders from before they existed, once, after the migrations (setup/migrate.ts): nothing once any
 * share is stored, since from then on every change writes its own, and a startup need not look at every order.
 */
export async function backfillSalesRollups(db: Db): Promise<{ orders: number } | null> {
  const [any] = await rawRows<{ found: boolean }>(db, sql`select exists (select 1 from order_sales_share) as found`);
  return any?.found ? null : recordMissingSalesShares(db);
}
