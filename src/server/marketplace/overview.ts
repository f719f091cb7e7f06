import "server-only";
import { and, desc, eq, isNotNull, ne, sql } from "drizzle-orm";
import { errorMessage } from "@/lib/error-message";
import type { Db } from "@/server/db/client";
import { rawRows } from "@/server/db/raw-rows";
import { marketplaceBulkRun, marketplaceOffer, marketplaceSync, order, orderDetail, product } from "@/server/db/schema";
import type { MarketplaceConnection, MarketplacePort } from "@/server/integrations/marketplace/port";
import { JOB_SCHEMA } from "@/server/jobs/boss";
import { bulkRunView } from "./bulk-progress";
import { quantityPushJob } from "./quantity-push";
import type { MarketplaceOverview } from "./schemas";

/** The marketplace account's row in marketplace_sync. */
const SYNC_ID = "EBAY";
/** The failing offers and oversold orders shown; the offers table filters the rest. */
const SHOWN = 20;

/** The /admin/ebay page: the connection, the order import, the pushes and the latest bulk update. */
export async function getMarketplaceOverview(db: Db, port: MarketplacePort): Promise<MarketplaceOverview> {
  const [connection, [sync], [pushes], failedOffers, oversoldOrders, [bulkRun]] = await Promise.all([
    connectionOf(port),
    db.select().from(marketplaceSync).where(eq(marketplaceSync.id, SYNC_ID)),
    rawRows<{ waiting: number }>(
      db,
      sql`select count(*)::int as waiting from ${sql.raw(`${JOB_SCHEMA}.job`)}
          where name = ${quantityPushJob.name} and state in ('created', 'retry', 'active')`,
    ),
    db
      .select({ productId: marketplaceOffer.productId, name: product.name, error: marketplaceOffer.lastError, at: marketplaceOffer.lastErrorAt })
      .from(marketplaceOffer)
      .innerJoin(product, eq(product.id, marketplaceOffer.productId))
      .where(and(isNotNull(marketplaceOffer.lastError), isNotNull(marketplaceOffer.lastErrorAt)))
      .orderBy(desc(marketplaceOffer.lastErrorAt))
      .limit(SHOWN),
    // A cancelled order was refunded in full: nothing is left for staff to do.
    db
      .select({ orderId: order.id, orderNumber: order.orderNumber, oversoldAt: orderDetail.oversoldAt })
      .from(orderDetail)
      .innerJoin(order, eq(order.id, orderDetail.orderId))
      .where(and(isNotNull(orderDetail.oversoldAt), ne(order.status, "CANCELLED")))
      .orderBy(desc(orderDetail.oversoldAt))
      .limit(SHOWN),
    db.select().from(marketplaceBulkRun).orderBy(desc(marketplaceBulkRun.id)).limit(1),
  ]);
  return {
    kind: port.kind,
    connected: connection.connected,
    tokenValidUntil: connection.tokenValidUntil,
    connectionProblem: connection.problem,
    ordersPolledAt: sync?.ordersPolledAt ?? null,
    ordersModifiedUntil: sync?.ordersModifiedUntil ?? null,
    lastPollError: sync?.lastPollError ?? null,
    lastPollErrorAt: sync?.lastPollErrorAt ?? null,
    lastNotificationAt: sync?.lastNotificationAt ?? null,
    pushesWaiting: pushes?.waiting ?? 0,
    failedOffers: failedOffers.map((row) => ({ productId: row.productId, name: row.name, error: row.error!, at: row.at! })),
    oversoldOrders: oversoldOrders.map((row) => ({ orderId: row.orderId, orderNumber: row.orderNumber, oversoldAt: row.oversoldAt! })),
    lastBulkRun: bulkRun ? bulkRunView(bulkRun) : null,
  };
}

/** A marketplace that cannot be reached is what the page is there to show, not a reason for the page to fail. */
async function connectionOf(port: MarketplacePort): Promise<MarketplaceConnection> {
  try {
    return await port.connection();
  } catch (error) {
    return { connected: false, tokenValidUntil: null, problem: errorMessage(error) };
  }
}
