import "server-only";
import { Decimal } from "decimal.js";
import { sql, type SQL } from "drizzle-orm";
import { moneyBackRefundStatuses, type OrderStatus } from "@/lib/enums";
import type { Db } from "@/server/db/client";
import { rawRows } from "@/server/db/raw-rows";
import { order, paymentDetail, refund } from "@/server/db/schema";
import type { CustomerStats } from "./customer-admin-schemas";

/*
 * What a customer's orders come to (`CustomerStats`), one rule for the customer table, its sorting and the customer's
 * page. Read from the order tables as the customer's own order history reads them (`listOrders` in service.ts):
 * account sits below orders on the map, so it reads their rows, not their services.
 */

/** Paid and not cancelled: the order machine's paid statuses (orders/order-machine.ts), which account may not import. */
const paidStatuses = ["PAID_READY_TO_SHIP", "PAID_FUTURE_SHIPMENT", "PROCESSED", "SHIPPED"] as const satisfies readonly OrderStatus[];

const orderId = sql`${order}.${sql.identifier("id")}`;
const isPaid = sql`${order.status} in (${sql.join(paidStatuses.map((status) => sql`${status}`), sql`, `)})`;
const moneyBack = sql`${refund.status} in (${sql.join(moneyBackRefundStatuses.map((status) => sql`${status}`), sql`, `)})`;

/**
 * One row per customer (`user_id`) among the orders `where` picks: orders (not cancelled), paid, refunded and the
 * last order's time. The payment is the order's latest payment row, as the order history reads it.
 */
export function customerStatsQuery(where: SQL): SQL {
  return sql`select ${order.userId} as user_id,
      (count(*) filter (where ${order.status} <> 'CANCELLED'))::int as orders,
      coalesce(sum(paid.total) filter (where ${isPaid}), 0) as paid,
      coalesce(sum(back.amount) filter (where ${isPaid}), 0) as refunded,
      max(${order.createdAt}) as last_order_at
    from ${order}
    left join lateral (select ${paymentDetail.total} as total from ${paymentDetail} where ${paymentDetail.orderId} = ${orderId} order by ${paymentDetail.id} desc limit 1) as paid on true
    left join lateral (select sum(${refund.amount}) as amount from ${refund} where ${refund.orderId} = ${orderId} and ${moneyBack}) as back on true
    where ${where}
    group by ${order.userId}`;
}

type StatsRow = { user_id: string; orders: number; paid: string; refunded: string; last_order_at: Date | string | null };

/** Stats of a customer without orders. */
export function noStats(): CustomerStats {
  return { orders: 0, paid: new Decimal(0), refunded: new Decimal(0), spend: new Decimal(0), lastOrderAt: null };
}

export function toStats(row: Pick<StatsRow, "orders" | "paid" | "refunded" | "last_order_at"> | undefined): CustomerStats {
  if (!row) return noStats();
  const paid = new Decimal(row.paid);
  const refunded = new Decimal(row.refunded);
  return {
    orders: Number(row.orders),
    paid,
    refunded,
    spend: paid.minus(refunded),
    lastOrderAt: row.last_order_at === null ? null : new Date(row.last_order_at),
  };
}

/** The stats of these customers, by id; customers without orders are not in the map. */
export async function customerStats(db: Db, userIds: readonly string[]): Promise<Map<string, CustomerStats>> {
  if (userIds.length === 0) return new Map();
  const rows = await rawRows<StatsRow>(db, customerStatsQuery(sql`${order.userId} in (${sql.join(userIds.map((id) => sql`${id}`), sql`, `)})`));
  return new Map(rows.map((row) => [row.user_id, toStats(row)]));
}
