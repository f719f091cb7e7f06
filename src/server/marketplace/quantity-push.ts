import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import { errorMessage } from "@/lib/error-message";
import { rowId } from "@/lib/id";
import type { Db } from "@/server/db/client";
import { marketplaceOffer, product } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { getMarketplace } from "@/server/integrations/marketplace/marketplace";
import { MarketplaceError, type MarketplacePort } from "@/server/integrations/marketplace/port";
import { defineJob } from "@/server/jobs/define";
import { enqueueJob } from "@/server/jobs/queue";
import { notifyStaff } from "@/server/notifications/service";
import { logOfferChange } from "./logbook";
import { marketplaceDay, nextMarketplaceDay, REVISIONS_PER_DAY, revisionsOn } from "./revisions";

/*
 * One stock across both channels: every stock change queues a push of the product's new quantity to its published
 * offer, within seconds. The push is coalesced per product (at most one waits; it reads the stock when it runs, so
 * it carries every change made while it waited), idempotent (a quantity the marketplace was already told is not sent
 * again) and keeps pushing while the stock moves under it. A quantity of 0 is pushed as 0: the listing stays, out of
 * stock, and comes back by itself when stock does.
 */


/** Rounds of pushing in one run while the stock keeps moving; a change after that has queued a run of its own. */
const MAX_ROUNDS = 5;

const pushRetry = { limit: 6, delaySeconds: 15, backoff: true };

/** Queues the push of a product's quantity, when the product has a published offer; at most one waits per product. */
async function queuePush(db: Db, productId: number, startAfter?: Date): Promise<void> {
  await enqueueJob(db, quantityPushJob, { productId }, { singletonKey: String(productId), singletonWhile: "waiting", startAfter });
}

async function isPublished(db: Db, productId: number): Promise<boolean> {
  const [offer] = await db
    .select({ productId: marketplaceOffer.productId })
    .from(marketplaceOffer)
    .where(and(eq(marketplaceOffer.productId, productId), eq(marketplaceOffer.status, "PUBLISHED")));
  return offer !== undefined;
}

/**
 * Called inside every stock change's transaction (bookStock), after the product's row is locked: queues the push of
 * the product's new quantity to the marketplace, which exists only if the change commits.
 */
export async function requestQuantityPush(tx: Db, productId: number): Promise<void> {
  if (await isPublished(tx, productId)) await queuePush(tx, productId);
}

/**
 * Queues a push of the product's quantity now, outside a stock change: staff retrying a failed push, or fixing a
 * quantity the reconciliation found different on the marketplace. What was pushed last is forgotten, so the push
 * sends the quantity even when the shop believes the marketplace has it.
 */
export async function requestQuantityPushNow(db: Db, productId: number): Promise<{ queued: boolean }> {
  return db.transaction(async (tx) => {
    const [offer] = await tx
      .select({ status: marketplaceOffer.status, pushedQuantity: marketplaceOffer.pushedQuantity })
      .from(marketplaceOffer)
      .where(eq(marketplaceOffer.productId, productId))
      .for("update");
    if (!offer) throw new AppError("NOT_FOUND", `Product ${productId} has no offer on eBay.`);
    if (offer.status !== "PUBLISHED") throw new AppError("PRECONDITION_FAILED", `Product ${productId} is not listed on eBay (its offer is ${offer.status}); publish it first.`);
    await tx.update(marketplaceOffer).set({ pushedQuantity: null }).where(eq(marketplaceOffer.productId, productId));
    await logOfferChange(tx, productId, {
      userId: null,
      previousState: { pushedQuantity: offer.pushedQuantity },
      newState: { pushedQuantity: null },
      description: `Quantity of product ${productId} to be pushed to eBay again`,
    });
    await queuePush(tx, productId);
    return { queued: true };
  });
}

/** What one run did: how many quantities it sent, or why it sent nothing more. */
export type QuantityPushOutcome =
  | { result: "pushed"; quantity: number; pushes: number }
  | { result: "unchanged"; quantity: number }
  | { result: "not listed" }
  | { result: "revision limit"; quantity: number }
  | { result: "refused"; quantity: number; error: string };

/** The product's stock, and what its offer is and was last told. */
const pushStateColumns = {
  stock: product.stock,
  sku: marketplaceOffer.sku,
  offerId: marketplaceOffer.offerId,
  status: marketplaceOffer.status,
  pushedQuantity: marketplaceOffer.pushedQuantity,
  lastPushedAt: marketplaceOffer.lastPushedAt,
  revisionDay: marketplaceOffer.revisionDay,
  revisionsToday: marketplaceOffer.revisionsToday,
};

/**
 * The product's push state. `FOR SHARE` on the product waits for a stock change in flight to commit, so the quantity
 * read is one some transaction committed, never one about to be replaced.
 */
async function readPushState(db: Db, productId: number) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select(pushStateColumns)
      .from(product)
      .innerJoin(marketplaceOffer, eq(marketplaceOffer.productId, product.id))
      .where(eq(product.id, productId))
      .for("share", { of: product });
    return row ?? null;
  });
}

/** Records a failed push on the offer and in the logbook (EBAY_API, WARNING). */
async function recordFailure(db: Db, productId: number, quantity: number, message: string, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(marketplaceOffer).set({ lastError: message, lastErrorAt: now }).where(eq(marketplaceOffer.productId, productId));
    await logOfferChange(tx, productId, {
      userId: null,
      logLevel: "WARNING",
      newState: { quantity },
      errorData: { message },
      description: `Quantity ${quantity} of product ${productId} could not be pushed to eBay: ${message}`,
    });
  });
}

/**
 * Pushes the product's stock to its published offer when it differs from what the marketplace was last told, then
 * reads the stock again and pushes again while it moved meanwhile. A push the marketplace refuses for good (the
 * request is wrong) is recorded and answered "refused"; one that may succeed later (no answer, 429, 5xx) is
 * recorded and thrown, for the queue to try again. Past the listing's daily revision limit the push is left for the
 * marketplace's next day, queued for then.
 */
export async function pushQuantity(db: Db, port: MarketplacePort, productId: number, now: () => Date = () => new Date()): Promise<QuantityPushOutcome> {
  let pushes = 0;
  let quantity = 0;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const state = await readPushState(db, productId);
    if (!state || state.status !== "PUBLISHED" || !state.offerId) return { result: "not listed" };
    quantity = state.stock;
    if (quantity === state.pushedQuantity) break;

    const at = now();
    const day = marketplaceDay(at);
    const revisions = revisionsOn(state, day);
    if (revisions >= REVISIONS_PER_DAY) {
      const message = `eBay allows ${REVISIONS_PER_DAY} revisions of a listing a day and this one had them all today; quantity ${quantity} is pushed after midnight (UTC).`;
      await db.transaction(async (tx) => {
        await tx.update(marketplaceOffer).set({ lastError: message, lastErrorAt: at }).where(eq(marketplaceOffer.productId, productId));
        await queuePush(tx, productId, nextMarketplaceDay(at));
      });
      return { result: "revision limit", quantity };
    }

    let failure: MarketplaceError | null = null;
    try {
      const [answer] = await port.updatePriceQuantity([{ sku: state.sku, offerId: state.offerId, quantity }]);
      if (!answer?.ok) {
        const words = answer?.error ?? "no answer for the offer";
        failure = new MarketplaceError("updatePriceQuantity", answer?.statusCode ?? null, [], `eBay refused quantity ${quantity} for ${state.sku}: ${words}`);
      }
    } catch (error) {
      failure = error instanceof MarketplaceError ? error : new MarketplaceError("updatePriceQuantity", null, [], errorMessage(error), { cause: error });
    }
    if (failure) {
      await recordFailure(db, productId, quantity, failure.message, at);
      if (failure.retryable) throw failure;
      return { result: "refused", quantity, error: failure.message };
    }

    pushes += 1;
    // Recorded only if nothing else wrote the offer since it was read: a revise or bulk write that told the
    // marketplace an older quantity may have landed after this push, so the next round reads what it recorded and
    // pushes the stock again.
    await db
      .update(marketplaceOffer)
      .set({ pushedQuantity: quantity, lastPushedAt: at, lastError: null, lastErrorAt: null, revisionDay: day, revisionsToday: revisions + 1 })
      .where(and(eq(marketplaceOffer.productId, productId), state.lastPushedAt ? eq(marketplaceOffer.lastPushedAt, state.lastPushedAt) : isNull(marketplaceOffer.lastPushedAt)));
  }
  return pushes > 0 ? { result: "pushed", quantity, pushes } : { result: "unchanged", quantity };
}

/**
 * `marketplace-quantity-push`: a product's quantity to its offer. Tried again with backoff while the marketplace
 * cannot take it; staff are told when the last try failed too (the offer shows the error, and /admin/ebay a retry).
 */
export const quantityPushJob = defineJob({
  name: "marketplace-quantity-push",
  schema: z.object({ productId: rowId }),
  retry: pushRetry,
  expireInSeconds: 120,
  async run({ productId }, { db, log, attempt }) {
    try {
      const outcome = await pushQuantity(db, getMarketplace(), productId);
      if (outcome.result === "refused") {
        await notifyStaff(db, { type: "OTHER", severity: "WARNING", message: `eBay refused the quantity of product ${productId}: ${outcome.error}` });
      }
    } catch (error) {
      log.warn({ event: "EBAY_API", productId, attempt, err: error }, "marketplace quantity push failed");
      if (attempt > pushRetry.limit) {
        await notifyStaff(db, { type: "OTHER", severity: "ERROR", message: `The quantity of product ${productId} could not be pushed to eBay after ${attempt} tries: ${errorMessage(error)}. Retry it on /admin/ebay.` });
      }
      throw error;
    }
  },
});
