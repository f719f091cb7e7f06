import "server-only";
import type { Db } from "@/server/db/client";
import { marketplaceSync } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import type { MarketplaceNotice, MarketplacePort } from "@/server/integrations/marketplace/port";
import { enqueueJob } from "@/server/jobs/queue";
import { hitRateLimit } from "@/server/rate-limit/service";
import { honourAccountDeletion } from "./account-deletion";
import { MARKETPLACE_SYNC_ID, orderImportJob } from "./order-import";

/*
 * The marketplace's notifications to /api/webhooks/ebay: an accelerator only (the poll is the source of truth), so
 * a notification is checked, remembered as the last one heard, and turned into a queued import of the order it
 * names; the import itself runs in the job, and the marketplace gets its answer at once. A buyer's account deletion
 * (MARKETPLACE_ACCOUNT_DELETION) is honoured at once, in the same transaction (account-deletion.ts).
 */

/**
 * Notifications one caller may send: eBay retries a delivery only after a failure, and a burst of sales is still
 * far below this; a caller past it is refused before its signature costs a key lookup.
 */
const notificationCallerLimit = { limit: 300, windowMs: 60_000 };

/**
 * Public key lookups all notifications together may cost the shop a minute, across instances: eBay names a key id
 * in each message, and one the shop has not seen is looked up with eBay. Genuine ids are few and cached for an hour.
 */
const keyLookupLimit = { limit: 30, windowMs: 60_000 };

/** Counts one notification from a client address; false once the address is over its limit for the minute. */
export async function allowNotificationCaller(db: Db, client: string, now: Date = new Date()): Promise<boolean> {
  return (await hitRateLimit(db, `marketplaceNotification:client:${client}`, notificationCallerLimit, now)).allowed;
}

/**
 * Takes one notification: refused (UNAUTHORIZED) unless the marketplace's signature over the body holds; an order
 * notice queues `marketplace-order-import` for that order (at most one waiting per order); an account deletion
 * erases that buyer's personal data from the shop's eBay orders.
 */
export async function receiveMarketplaceNotification(db: Db, port: MarketplacePort, headers: Headers, body: string, now: Date = new Date()): Promise<MarketplaceNotice> {
  const notice = await port.readNotification(headers, body, {
    mayLookUpKey: async () => (await hitRateLimit(db, "marketplaceNotification:keyLookups", keyLookupLimit, now)).allowed,
  });
  if (!notice) throw new AppError("UNAUTHORIZED", "The notification is not signed by the marketplace");
  await db.transaction(async (tx) => {
    await tx
      .insert(marketplaceSync)
      .values({ id: MARKETPLACE_SYNC_ID, lastNotificationAt: now })
      .onConflictDoUpdate({ target: marketplaceSync.id, set: { lastNotificationAt: now, updatedAt: now } });
    if (notice.kind === "order") await enqueueJob(tx, orderImportJob, { orderId: notice.orderId }, { singletonKey: notice.orderId, singletonWhile: "waiting" });
    // Done before eBay gets its answer: a failure answers 500, and eBay delivers the notification again.
    if (notice.kind === "accountDeletion") await honourAccountDeletion(tx, notice);
  });
  return notice;
}

/**
 * The answer to the marketplace's check of the endpoint (`GET ?challenge_code=`): `{ challengeResponse }`, a digest
 * of the code, the verification token and the endpoint's address as the marketplace knows it.
 */
export function answerMarketplaceChallenge(port: MarketplacePort, challengeCode: string, endpointUrl: string): { challengeResponse: string } {
  if (!/^[\w.-]{1,200}$/.test(challengeCode)) throw new AppError("BAD_REQUEST", "The challenge code is missing or not one the marketplace sends");
  return { challengeResponse: port.notificationChallengeResponse(challengeCode, endpointUrl) };
}
