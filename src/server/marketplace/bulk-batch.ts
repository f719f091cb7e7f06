import "server-only";
import type { Decimal } from "decimal.js";
import type { SQL } from "drizzle-orm";
import type { MarketplaceId } from "@/lib/enums";
import type { Db } from "@/server/db/client";
import { marketplaceOffer, product } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { MarketplaceError, type MarketplaceItemResult, type MarketplacePort, type PriceQuantityUpdate } from "@/server/integrations/marketplace/port";
import { readCategoryRules, type CategoryRules } from "./category-rules";
import { channelPrice } from "./channel-price";
import { readChannelSettings } from "./channel-settings";
import { buildListing, readOfferSources, type Listing, type ProductPictures } from "./offer-record";
import { readPublishedOffers } from "./published-offers";
import type { BulkFields } from "./schemas";

/*
 * One batch of the bulk update at the marketplace: the published offers it reads, what it sends (prices and
 * quantities, or the whole item and offer when the run rewrites descriptions), what became of each offer, and after a
 * crash which offers already hold what the run sends. Claiming and recording batches is bulk-update.ts.
 */

/** The marketplace's most per bulk call (eBay's bulkUpdatePriceQuantity and bulkCreateOrReplaceInventoryItem). */
const BATCH_SIZE = 25;

export type BatchOffer = {
  productId: number;
  sku: string;
  marketplaceId: MarketplaceId;
  offerId: string | null;
  revisionDay: string | null;
  revisionsToday: number;
  quantity: number;
  /** The eBay price, not the shop's. */
  price: Decimal;
};

/** What became of one offer of a batch. `revisions` is how many the marketplace counted against today's limit. */
export type OfferOutcome = { productId: number; ok: boolean; error: string | null; revisions: number };

/** What a batch reads of each offer (`BatchOffer`). */
const batchColumns = {
  productId: marketplaceOffer.productId,
  sku: marketplaceOffer.sku,
  marketplaceId: marketplaceOffer.marketplaceId,
  offerId: marketplaceOffer.offerId,
  revisionDay: marketplaceOffer.revisionDay,
  revisionsToday: marketplaceOffer.revisionsToday,
  quantity: product.stock,
  listPrice: product.price,
  ebayPrice: product.ebayPrice,
};

/** The batch's published offers, each at its eBay price (channel-price.ts) under the settings as stored now. */
export async function batchOf(db: Db, after: SQL | undefined): Promise<BatchOffer[]> {
  const [rows, { markupPercent }] = await Promise.all([readPublishedOffers(db, batchColumns, after, BATCH_SIZE), readChannelSettings(db)]);
  return rows.map(({ listPrice, ebayPrice, ...offer }) => ({ ...offer, price: channelPrice({ price: listPrice, ebayPrice }, markupPercent) }));
}

/** Revisions of a listing per offer: a price and quantity update is one, the whole item and offer are two. */
export const revisionsPerOffer = (fields: BulkFields) => (fields.description ? 2 : 1);

/** Whether the run sends prices: by themselves, or within the whole offer. */
export const sendsPrice = (fields: BulkFields) => fields.price || fields.description;

export const failed = (productId: number, error: string, revisions = 0): OfferOutcome => ({ productId, ok: false, error, revisions });

/**
 * Asks the marketplace which offers of a batch sent before a crash already hold what the run sends, and counts
 * those as done without sending them again.
 */
export async function alreadyThere(port: MarketplacePort, offers: BatchOffer[], fields: BulkFields): Promise<Set<number>> {
  const there = new Set<number>();
  // One at a time: the answers are read only after a crash, and the marketplace counts calls.
  for (const offer of offers) {
    const state = await port.getOffer(offer.sku);
    if (!state || state.quantity !== offer.quantity) continue;
    if (sendsPrice(fields) && !state.price.equals(offer.price)) continue;
    there.add(offer.productId);
  }
  return there;
}

export async function sendPriceQuantity(port: MarketplacePort, offers: BatchOffer[], fields: BulkFields): Promise<OfferOutcome[]> {
  const updates: PriceQuantityUpdate[] = offers.map((offer) => ({
    sku: offer.sku,
    offerId: offer.offerId!,
    quantity: offer.quantity,
    ...(fields.price ? { price: offer.price } : {}),
  }));
  let results: MarketplaceItemResult[];
  try {
    results = await port.updatePriceQuantity(updates);
  } catch (error) {
    // The marketplace refused the whole call: every offer in it failed the same way.
    if (error instanceof MarketplaceError && !error.retryable) return offers.map((offer) => failed(offer.productId, error.message));
    throw error;
  }
  const bySku = new Map(results.map((result) => [result.sku, result]));
  return offers.map((offer) => {
    const result = bySku.get(offer.sku);
    if (!result) return failed(offer.productId, "The marketplace did not answer for this offer.");
    return result.ok ? { productId: offer.productId, ok: true, error: null, revisions: 1 } : failed(offer.productId, result.error ?? `Refused with status ${result.statusCode}.`);
  });
}

/**
 * Rewrites the whole inventory item (25 in one call) and then the whole offer of each: eBay replaces what is stored
 * with what is sent, so the description goes out with everything else the product says. The quantity and price sent
 * are what the listing was built from, and what is recorded as pushed.
 */
export async function sendListings(db: Db, port: MarketplacePort, offers: BatchOffer[], pictures: ProductPictures): Promise<OfferOutcome[]> {
  const sources = await readOfferSources(db, offers.map((offer) => offer.productId), pictures);
  // A listing its eBay category would refuse (a required item specific missing, a condition it does not take) is
  // skipped with the reason, before anything is sent.
  const rules = new Map<MarketplaceId, Map<string, CategoryRules>>();
  for (const marketplaceId of new Set(offers.map((offer) => offer.marketplaceId))) {
    const categoryIds = offers.filter((offer) => offer.marketplaceId === marketplaceId).flatMap((offer) => sources.get(offer.productId)?.ebayCategoryId ?? []);
    rules.set(marketplaceId, await readCategoryRules(db, port, marketplaceId, categoryIds.filter((id) => /^\d+$/.test(id))));
  }
  const outcomes: OfferOutcome[] = [];
  const listings: { offer: BatchOffer; listing: Listing }[] = [];
  for (const offer of offers) {
    const source = sources.get(offer.productId);
    if (!source) {
      outcomes.push(failed(offer.productId, "The product no longer exists."));
      continue;
    }
    try {
      const listing = buildListing(source, offer.marketplaceId, offer.price, source.ebayCategoryId ? rules.get(offer.marketplaceId)?.get(source.ebayCategoryId) : null);
      offer.quantity = listing.item.quantity;
      offer.price = listing.offer.price;
      listings.push({ offer, listing });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      outcomes.push(failed(offer.productId, error.message));
    }
  }
  if (listings.length === 0) return outcomes;
  let itemResults: MarketplaceItemResult[];
  try {
    itemResults = await port.putItems(listings.map(({ listing }) => listing.item));
  } catch (error) {
    if (error instanceof MarketplaceError && !error.retryable) return [...outcomes, ...listings.map(({ offer }) => failed(offer.productId, error.message))];
    throw error;
  }
  const bySku = new Map(itemResults.map((result) => [result.sku, result]));
  for (const { offer, listing } of listings) {
    const itemResult = bySku.get(offer.sku);
    if (!itemResult?.ok) {
      outcomes.push(failed(offer.productId, itemResult ? (itemResult.error ?? `Refused with status ${itemResult.statusCode}.`) : "The marketplace did not answer for this item."));
      continue;
    }
    try {
      await port.updateOffer(offer.offerId!, listing.offer);
      outcomes.push({ productId: offer.productId, ok: true, error: null, revisions: 2 });
    } catch (error) {
      if (!(error instanceof MarketplaceError && !error.retryable)) throw error;
      // The item was written, which the marketplace counts as a revision too.
      outcomes.push(failed(offer.productId, error.message, 1));
    }
  }
  return outcomes;
}
