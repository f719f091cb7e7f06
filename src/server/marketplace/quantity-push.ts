import "server-only";
import { and, eq, isNull, lt, or } from "drizzle-orm";
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
import { channelPrice } from "./channel-price";
import { readChannelSettings } from "./channel-settings";
import { endListing } from "./listing-end";
import { logOfferChange } from "./logbook";
import { shopProductPictures, type ProductPictures } from "./offer-record";
import { list } from "./offers";
import { marketplaceDay, nextMarketplaceDay, REVISIONS_PER_DAY, revisionsOn } from "./revisions";

/*
 * One stock across both channels: every stock change queues a push of the product's new quantity (and its eBay price,
 * which a price change queues too) to its published offer, within seconds. The push is coalesced per product (at
 * most one waits; it reads the stock when it runs, so it carries every change made while it waited), idempotent (a
 * quantity and price the marketplace was already told are not sent again) and keeps pushing while the stock moves
 * under it. At 0 the listing follows the shop's setting: kept, out of stock, with quantity 0; or ended, and relisted
 * under a new listing id when stock returns.
 */

/** Rounds of pushing in one run while the stock keeps moving; a change after that has queued a run of its own. */
const MAX_ROUNDS = 5;

const pushRetry = { limit: 6, delaySeconds: 15, backoff: true };

/** Queues the push of a product's quantity, when the product has a published offer; at most one waits per product. */
async function queuePush(db: Db, productId: number, startAfter?: Date): Promise<void> {
  await enqueueJob(db, quantityPushJob, { productId }, { singletonKey: String(productId), singletonWhile: "waiting", startAfter });
}

/** An offer the push looks after: published, or ended at 0 and waiting for stock to be relisted. */
const pushable = or(eq(marketplaceOffer.status, "PUBLISHED"), and(eq(marketplaceOffer.status, "WITHDRAWN"), eq(marketplaceOffer.endReason, "OUT_OF_STOCK")));

async function isPushable(db: Db, productId: number): Promise<boolean> {
  const [offer] = await db.select({ productId: marketplaceOffer.productId }).from(marketplaceOffer).where(and(eq(marketplaceOffer.productId, productId), pushable));
  return offer !== undefined;
}

/**
 * Called inside every stock change's transaction (bookStock), after the product's row is locked, and in the one that
 * changes a product's price: queues the push of the product's new quantity and price to the marketplace, which
 * exists only if the change commits.
 */
export async function requestQuantityPush(tx: Db, productId: number): Promise<void> {
  if (await isPushable(tx, productId)) await queuePush(tx, productId);
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
  | { result: "ended" }
  | { result: "relisted"; quantity: number; listingId: string }
  | { result: "relisting elsewhere" }
  | { result: "unchanged"; quantity: number }
  | { result: "not listed" }
  | { result: "revision limit"; quantity: number }
  | { result: "refused"; quantity: number; error: string };

/** The product's stock, and what its offer is and was last told. */
const pushStateColumns = {
  stock: product.stock,
  price: product.price,
  ebayPrice: product.ebayPrice,
  sku: marketplaceOffer.sku,
  offerId: marketplaceOffer.offerId,
  status: marketplaceOffer.status,
  endReason: marketplaceOffer.endReason,
  relistClaimedAt: marketplaceOffer.relistClaimedAt,
  pushedQuantity: marketplaceOffer.pushedQuantity,
  pushedPrice: marketplaceOffer.pushedPrice,
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

/** How long a relist keeps others off the offer: past it (the run died) a push may relist it, before the job's retry. */
const RELIST_CLAIM_MS = 90_000;

/**
 * Claims the relist of an offer ended at 0: one push relists it, a second at the same time leaves it (two publishes
 * of one offer would be two listings, or a revision wasted). A claim older than RELIST_CLAIM_MS was a run that died.
 */
async function claimRelist(db: Db, productId: number, at: Date): Promise<boolean> {
  const [claimed] = await db
    .update(marketplaceOffer)
    .set({ relistClaimedAt: at })
    .where(
      and(
        eq(marketplaceOffer.productId, productId),
        eq(marketplaceOffer.status, "WITHDRAWN"),
        eq(marketplaceOffer.endReason, "OUT_OF_STOCK"),
        or(isNull(marketplaceOffer.relistClaimedAt), lt(marketplaceOffer.relistClaimedAt, new Date(at.getTime() - RELIST_CLAIM_MS))),
      ),
    )
    .returning({ productId: marketplaceOffer.productId });
  return claimed !== undefined;
}

/** Relists an offer ended at 0 whose stock returned, under a new listing id; a failure hands the claim back. */
async function relist(db: Db, port: MarketplacePort, productId: number, at: Date, pictures: ProductPictures): Promise<QuantityPushOutcome> {
  if (!(await claimRelist(db, productId, at))) return { result: "relisting elsewhere" };
  try {
    const done = await list({ db, port, actor: { userId: null }, pictures }, productId, "relist");
    const [offer] = await db.select({ quantity: marketplaceOffer.pushedQuantity }).from(marketplaceOffer).where(eq(marketplaceOffer.productId, productId));
    return { result: "relisted", quantity: offer?.quantity ?? 0, listingId: done.listingId! };
  } catch (error) {
    await db.update(marketplaceOffer).set({ relistClaimedAt: null }).where(eq(marketplaceOffer.productId, productId));
    const message = errorMessage(error);
    if (error instanceof MarketplaceError && error.retryable) {
      await recordFailure(db, productId, 0, `The relist failed: ${message}`, at);
      throw error;
    }
    // The product cannot be listed as it is (no picture, a draft, eBay refuses it): staff see why; a later stock
    // change or staff's republish tries again.
    await recordFailure(db, productId, 0, `Back in stock but not relisted: ${message}`, at);
    return { result: "refused", quantity: 0, error: message };
  }
}

/**
 * Pushes the product's stock and eBay price to its published offer when either differs from what the marketplace was
 * last told, then reads them again and pushes again while they moved meanwhile. At 0 under the "end" setting the
 * listing is ended instead; an offer ended at 0 is relisted when its stock returns. A push the marketplace refuses
 * for good (the request is wrong) is recorded and answered "refused"; one that may succeed later (no answer, 429,
 * 5xx) is recorded and thrown, for the queue to try again. Past the listing's daily revision limit the push is left
 * for the marketplace's next day, queued for then.
 */
export async function pushQuantity(
  db: Db,
  port: MarketplacePort,
  productId: number,
  now: () => Date = () => new Date(),
  pictures?: ProductPictures,
): Promise<QuantityPushOutcome> {
  let pushes = 0;
  let quantity = 0;
  let changed: QuantityPushOutcome | null = null;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const state = await readPushState(db, productId);
    if (state?.status === "WITHDRAWN" && state.endReason === "OUT_OF_STOCK") {
      if (state.stock <= 0) return changed ?? { result: "ended" };
      changed = await relist(db, port, productId, now(), pictures ?? shopProductPictures());
      if (changed.result !== "relisted") return changed;
      continue;
    }
    if (!state || state.status !== "PUBLISHED" || !state.offerId) return changed ?? { result: "not listed" };
    quantity = state.stock;
    const settings = await readChannelSettings(db);
    if (quantity === 0 && settings.outOfStock === "END") {
      try {
        await endListing({ db, port, actor: { userId: null } }, productId, "OUT_OF_STOCK");
      } catch (error) {
        // Another write ended or changed the offer meanwhile: the next round reads what it recorded.
        if (error instanceof AppError && !(error instanceof MarketplaceError)) continue;
        const failure = error instanceof MarketplaceError ? error : null;
        await recordFailure(db, productId, 0, `The listing could not be ended at 0: ${errorMessage(error)}`, now());
        if (!failure || failure.retryable) throw error;
        return { result: "refused", quantity, error: failure.message };
      }
      changed = { result: "ended" };
      continue;
    }
    const price = channelPrice(state, settings.markupPercent);
    if (quantity === state.pushedQuantity && state.pushedPrice?.equals(price)) break;

    const at = now();
    const day = marketplaceDay(at);
    const revisions = revisionsOn(state, day);
    if (revisions >= REVISIONS_PER_DAY) {
      const message = `eBay allows ${REVISIONS_PER_DAY} revisions of a listing a day and this one had them all today; quantity ${quantity} is pushed after midnight (UTC), at ${price.toFixed(2)}.`;
      await db.transaction(async (tx) => {
        await tx.update(marketplaceOffer).set({ lastError: message, lastErrorAt: at }).where(eq(marketplaceOffer.productId, productId));
        await queuePush(tx, productId, nextMarketplaceDay(at));
      });
      return { result: "revision limit", quantity };
    }

    let failure: MarketplaceError | null = null;
    try {
      // The price goes with every push: one revision either way, and the listing always shows the shop's price.
      const [answer] = await port.updatePriceQuantity([{ sku: state.sku, offerId: state.offerId, quantity, price }]);
      if (!answer?.ok) {
        const words = answer?.error ?? "no answer for the offer";
        failure = new MarketplaceError("updatePriceQuantity", answer?.statusCode ?? null, [], `eBay refused quantity ${quantity} for ${state.sku} (at ${price.toFixed(2)}): ${words}`);
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
      .set({ pushedQuantity: quantity, pushedPrice: price, lastPushedAt: at, lastError: null, lastErrorAt: null, revisionDay: day, revisionsToday: revisions + 1 })
      .where(and(eq(marketplaceOffer.productId, productId), state.lastPushedAt ? eq(marketplaceOffer.lastPushedAt, state.lastPushedAt) : isNull(marketplaceOffer.lastPushedAt)));
  }
  if (pushes > 0) return { result: "pushed", quantity, pushes };
  return changed ?? { result: "unchanged", quantity };
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
