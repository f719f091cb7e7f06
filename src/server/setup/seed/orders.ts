import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { rawRows } from "@/server/db/raw-rows";
import { country, logbook, order, orderAddress, orderDetail, orderDiscount, orderItem, paymentDetail, region, shippingSurcharge } from "@/server/db/schema";
import { bookStockInProductOrder } from "@/server/stock/service";
import { bulkInsert } from "@/server/db/bulk-insert";
import { DAY } from "./durations";
import type { DemoOrderPlan, DemoOrderSummary } from "./order-plan";
import { orderRows, type Move, type Rows, type ShippingRules } from "./order-rows";

/**
 * Six months of demo orders, so that the dashboard, the order lists and the charts have something to show on a fresh
 * start. The history is planned first (`order-plan.ts`: who buys what, when, how they pay and how far each order
 * got), then written here as the shop itself would have written it (`order-rows.ts`): each web shop cart priced by the
 * pricing service with the discounts in force on the day, and the discounts that took money off it recorded as
 * checkout records them (`order_discount`, so that the discounts admin shows uses and revenue), each parcel by the
 * shipping rules, totals by `orderTotals`, every status change checked against the order machine and logged as
 * `transitionOrder` logs it, and every piece leaving (and a cancelled order's coming back) through the stock ledger
 * (`bookStockInProductOrder`), in the order it happened.
 *
 * It stays cheap enough for every first start (a few hundred orders): the orders' rows and logbook entries go in a
 * few bulk statements, and only the ledger moves one by one, through `bookStock`. Their rows are then dated to the
 * moment they describe, so the logbook, the ledger and an order's timeline read like the shop's past. Writing in bulk
 * makes this a second writer of orders beside `insertOrder` and `transitionOrder`: `order-writer.int.test.ts` writes
 * seeded orders again through those and fails when the rows differ.
 */

/**
 * Writes the planned orders in the caller's transaction: each priced and quoted, its rows written as they stand
 * today, its stock taken (and a cancelled one's given back) through the ledger in the order it happened, and its
 * history in the logbook. `orderNumberBase` is how many orders were numbered before (a history written first); the
 * demo's orders take the ids and numbers after it.
 */
export async function placeDemoOrders(
  tx: Db,
  plan: DemoOrderPlan,
  options: { now: Date; customerId: string; adminId: string; orderNumberBase?: number },
): Promise<DemoOrderSummary> {
  const base = options.orderNumberBase ?? 0;
  const summary: DemoOrderSummary = {
    orders: plan.orders.length,
    byStatus: { PENDING: 0, PAID_READY_TO_SHIP: 0, PAID_FUTURE_SHIPMENT: 0, PROCESSED: 0, SHIPPED: 0, CANCELLED: 0 },
    byShop: { WEBSHOP: 0, EBAY: 0 },
  };
  if (plan.orders.length === 0) return summary;

  const [marks] = await rawRows<{ item: number; ledger: number; logbook: number }>(
    tx,
    sql`select (select coalesce(max(id), 0) from order_item)::int as item, (select coalesce(max(id), 0) from stock_record)::int as ledger,
      (select coalesce(max(id), 0) from logbook)::int as logbook`,
  );
  const rules = await shippingRules(tx);
  const rows: Rows = { orders: [], items: [], addresses: [], details: [], payments: [], discounts: [], log: [] };
  const moves: Move[] = [];
  let itemId = marks!.item;
  for (const planned of plan.orders) {
    const written = await orderRows(tx, planned, { ...options, base, plan, rules, nextItemId: () => ++itemId });
    for (const key of Object.keys(rows) as (keyof Rows)[]) (rows[key] as unknown[]).push(...written.rows[key]);
    moves.push(...written.moves);
    summary.byStatus[written.status]++;
    summary.byShop[planned.shop]++;
  }
  await bulkInsert(tx, order, rows.orders);
  await bulkInsert(tx, orderItem, rows.items);
  await bulkInsert(tx, orderAddress, rows.addresses);
  await bulkInsert(tx, orderDetail, rows.details);
  await bulkInsert(tx, paymentDetail, rows.payments);
  await bulkInsert(tx, orderDiscount, rows.discounts);

  for (const move of moves.sort((a, b) => a.at.getTime() - b.at.getTime())) {
    await bookStockInProductOrder(
      tx,
      move.items.map((item) => ({
        productId: item.productId,
        quantity: move.back ? item.quantity : -item.quantity,
        type: "ORDER_ITEM" as const,
        orderItemId: item.id,
        userId: move.userId,
        description: move.back ? `Order ${move.orderNumber} was cancelled: ${item.quantity} back in stock` : `Sold ${item.quantity}${move.shop === "EBAY" ? " on eBay" : ""} in order ${move.orderNumber}`,
      })),
    );
  }
  await dateLedger(tx, marks!.ledger, marks!.logbook);
  await bulkInsert(tx, logbook, rows.log);
  await tx.execute(sql`select setval('order_number_seq', ${base + plan.orders.length})`);
  // Staff have read what happened before yesterday; what is newer waits in the logbook as unread.
  await tx.execute(sql`
    insert into logbook_read_by_user (logbook_id, user_id, created_at, updated_at)
    select id, ${options.adminId}, created_at, created_at from logbook
    where id > ${marks!.logbook} and created_at < ${new Date(options.now.getTime() - DAY).toISOString()}::timestamptz`);
  return summary;
}

/**
 * The ledger rows `bookStock` just wrote carry the moment of seeding (the database's clock in the seed's one
 * transaction): date each to when its order was placed, or cancelled for a return, and its costs, its logbook entry
 * and its product's last change with it.
 */
async function dateLedger(tx: Db, ledgerMark: number, logbookMark: number): Promise<void> {
  await tx.execute(sql`
    update stock_record r set created_at = d.at, updated_at = d.at
    from (
      select s.id, case when s.quantity < 0 then o.created_at else o.updated_at end as at
      from stock_record s join order_item i on i.id = s.order_item_id join "order" o on o.id = i.order_id
      where s.id > ${ledgerMark}
    ) d
    where r.id = d.id`);
  await tx.execute(sql`
    update stock_record_cost c set created_at = r.created_at, updated_at = r.created_at
    from stock_record r where r.id = c.stock_record_id and r.id > ${ledgerMark}`);
  await tx.execute(sql`
    update logbook l set created_at = r.created_at, updated_at = r.created_at
    from stock_record r
    where l.id > ${logbookMark} and l.event_type = 'STOCK_CHANGE' and r.id = (l.new_state ->> 'stockRecordId')::int`);
  await tx.execute(sql`
    update product p set updated_at = greatest(p.created_at, d.at)
    from (select product_id, max(created_at) as at from stock_record where id > ${ledgerMark} group by product_id) d
    where p.id = d.product_id`);
}

/** The shop's shipping settings, read once: the rules (`shippingOptionsFor`) then price every order's parcel. */
async function shippingRules(tx: Db): Promise<ShippingRules> {
  // One after the other: a transaction is one connection.
  const countryRows = await tx.select().from(country);
  const regionRows = await tx.select().from(region);
  const bands = await tx.select({ minPrice: shippingSurcharge.minPrice, maxPrice: shippingSurcharge.maxPrice, percentage: shippingSurcharge.percentage }).from(shippingSurcharge);
  const destinations: ShippingRules["destinations"] = new Map();
  for (const c of countryRows) {
    const destination = {
      countryCode: c.code, countryName: c.name, regionCode: null, regionName: null, eu: c.eu, untrackedCost: c.untrackedCost,
      tntCost: c.tntCost, untrackedEtaDays: c.untrackedEtaDays, tntEtaDays: c.tntEtaDays, maxOrderUntracked: c.maxOrderUntracked,
    };
    destinations.set(c.code, destination);
    for (const r of regionRows.filter((candidate) => candidate.countryId === c.id)) {
      destinations.set(`${c.code}:${r.code}`, { ...destination, regionCode: r.code, regionName: r.name, maxOrderUntracked: r.maxOrderUntracked ?? c.maxOrderUntracked });
    }
  }
  return { destinations, bands };
}
