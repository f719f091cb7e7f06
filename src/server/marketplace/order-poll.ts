import "server-only";
import { eq } from "drizzle-orm";
import { errorMessage } from "@/lib/error-message";
import type { Db } from "@/server/db/client";
import { marketplaceSync } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { getMarketplace } from "@/server/integrations/marketplace/marketplace";
import type { MarketplaceOrder, MarketplacePort } from "@/server/integrations/marketplace/port";
import { defineScheduledJob, everyMinute } from "@/server/jobs/define";
import { logMarketplaceWarning } from "./logbook";
import { FIRST_POLL_WINDOW_MS, importMarketplaceOrder, MARKETPLACE_SYNC_ID } from "./order-import";

/*
 * The minute's poll of the marketplace's orders, the safety net under its notifications: every order modified since
 * the last complete poll is imported once (order-import.ts), and `marketplace_sync` keeps the poll's watermark and
 * its last error.
 */
/** How far back each poll starts before the last one's end: orders eBay reports late are still found. */
const POLL_OVERLAP_MS = 10 * 60_000;

async function recordPollFailure(db: Db, message: string, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .insert(marketplaceSync)
      .values({ id: MARKETPLACE_SYNC_ID, lastPollError: message, lastPollErrorAt: now })
      .onConflictDoUpdate({ target: marketplaceSync.id, set: { lastPollError: message, lastPollErrorAt: now, updatedAt: now } });
    await logMarketplaceWarning(tx, { errorData: { message }, description: `eBay orders could not be polled: ${message}` });
  });
}

/**
 * Asks the marketplace for the orders modified since the last complete poll, starting ten minutes before it (orders
 * the marketplace reports late are still found; the first poll looks back a day), and imports each once. A complete
 * poll moves the watermark to the moment it asked up to; a failed one (the marketplace, or an order that could not
 * be imported) records the error and leaves the watermark, so the next poll asks again.
 */
export async function pollMarketplaceOrders(db: Db, port: MarketplacePort, now: Date = new Date()): Promise<{ imported: number }> {
  const [sync] = await db.select({ ordersModifiedUntil: marketplaceSync.ordersModifiedUntil }).from(marketplaceSync).where(eq(marketplaceSync.id, MARKETPLACE_SYNC_ID));
  const modifiedFrom = sync?.ordersModifiedUntil ? new Date(sync.ordersModifiedUntil.getTime() - POLL_OVERLAP_MS) : new Date(now.getTime() - FIRST_POLL_WINDOW_MS);
  let orders: MarketplaceOrder[];
  try {
    orders = await port.getOrders({ modifiedFrom, modifiedTo: now });
  } catch (error) {
    const message = `eBay did not give its orders: ${errorMessage(error)}`;
    await recordPollFailure(db, message, now);
    throw new AppError("PRECONDITION_FAILED", `${message}. The next poll asks again.`, { cause: error });
  }
  let imported = 0;
  const failed: string[] = [];
  for (const found of orders) {
    try {
      if ((await importMarketplaceOrder(db, found, now)).result === "imported") imported += 1;
    } catch (error) {
      failed.push(`${found.orderId}: ${errorMessage(error)}`);
    }
  }
  if (failed.length > 0) {
    const message = `eBay order${failed.length === 1 ? "" : "s"} could not be imported (${failed.join("; ")})`;
    await recordPollFailure(db, message, now);
    throw new AppError("INTERNAL_SERVER_ERROR", `${message}. The next poll tries again.`);
  }
  await db
    .insert(marketplaceSync)
    .values({ id: MARKETPLACE_SYNC_ID, ordersPolledAt: now, ordersModifiedUntil: now })
    .onConflictDoUpdate({ target: marketplaceSync.id, set: { ordersPolledAt: now, ordersModifiedUntil: now, lastPollError: null, lastPollErrorAt: null, updatedAt: now } });
  return { imported };
}

/** `marketplace-order-poll`: every minute; a failed poll is left to the next minute's. */
export const orderPollJob = defineScheduledJob({
  name: "marketplace-order-poll",
  ...everyMinute,
  expireInSeconds: 120,
  async run({ db, log }) {
    const { imported } = await pollMarketplaceOrders(db, getMarketplace());
    if (imported > 0) log.info({ event: "EBAY_API", imported }, `imported ${imported} eBay order(s)`);
  },
});
