import "server-only";
import { and, count, desc, eq, gt, ilike, inArray, isNotNull, isNull, or, type SQL } from "drizzle-orm";
import { env } from "@/env";
import type { MarketplaceId } from "@/lib/enums";
import { productForSale } from "@/server/catalog/product-for-sale";
import type { Db } from "@/server/db/client";
import { marketplaceOffer, product } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { getMarketplace } from "@/server/integrations/marketplace/marketplace";
import { MarketplaceError, type MarketplacePort } from "@/server/integrations/marketplace/port";
import { escapeLike } from "@/server/logbook/service";
import { logger } from "@/server/logger";
import { rulesOfCategory } from "./category-rules";
import { logOfferChange } from "./logbook";
import { blockedProductIds, blockersOf } from "./offer-blockers";
import { buildListing, listingBlocker, productSku, readOfferSource, shopProductPictures, type ProductPictures } from "./offer-record";
import { channelPrice, channelPriceBasis } from "./channel-price";
import { readChannelSettings } from "./channel-settings";
import { endListing } from "./listing-end";
import { countRevision, endedListingId, offerState, priceOnMarketplace, pushIfMoved, putItem, readStoredOffer, type Done, type MarketplaceActor, type WriteContext } from "./offer-writes";
import type { OfferActionOutcome, OfferList, OfferListQuery, OfferRow } from "./schemas";

export type { MarketplaceActor } from "./offer-writes";

/*
 * Staff's offers on the marketplace (/admin/ebay/manage-ads): the table of products with their offer, and the actions
 * on a selection. The marketplace is called outside any transaction (a slow marketplace never holds a product's
 * lock); what it answered is written afterwards in one transaction with its logbook entry. Each product of a
 * selection succeeds or fails on its own, and a refusal is kept on the offer (lastError) for the table and the
 * overview to show.
 */

// ---------------------------------------------------------------------------------------------------------------
// The offers table
// ---------------------------------------------------------------------------------------------------------------

/** A search for a product id: "123" or its SKU "BC-123". */
function searchedId(search: string): number | null {
  const match = /^(?:BC-)?(\d{1,9})$/i.exec(search);
  return match ? Number(match[1]) : null;
}

function listConditions(query: OfferListQuery): SQL[] {
  const conditions: SQL[] = [];
  if (query.search) {
    const byName = ilike(product.name, `%${escapeLike(query.search)}%`);
    const id = searchedId(query.search);
    conditions.push(id === null ? byName : or(eq(product.id, id), byName)!);
  }
  if (query.status === "NONE") conditions.push(isNull(marketplaceOffer.productId));
  else if (query.status) conditions.push(eq(marketplaceOffer.status, query.status));
  if (query.failing) conditions.push(isNotNull(marketplaceOffer.lastError));
  if (query.inStock === true) conditions.push(gt(product.stock, 0));
  if (query.inStock === false) conditions.push(eq(product.stock, 0));
  return conditions;
}

/**
 * One page of products with their offer, newest product first, each with what keeps it off the marketplace (its
 * eBay category's item specifics and conditions included); `blocked` keeps only those.
 */
export async function listOffers(db: Db, query: OfferListQuery, pictures: ProductPictures = shopProductPictures(), port: MarketplacePort = getMarketplace()): Promise<OfferList> {
  let where = and(...listConditions(query));
  let blockedTotal: number | null = null;
  if (query.blocked) {
    const ids = await blockedProductIds(db, port, where, pictures);
    blockedTotal = ids.length;
    where = and(where, inArray(product.id, ids.slice((query.page - 1) * query.pageSize, query.page * query.pageSize)));
  }
  const [rows, [total]] = await Promise.all([
    db
      .select({ id: product.id, name: product.name, price: product.price, ebayPrice: product.ebayPrice, stock: product.stock, ebayStatus: product.ebayStatus, offer: marketplaceOffer })
      .from(product)
      .leftJoin(marketplaceOffer, eq(marketplaceOffer.productId, product.id))
      .where(where)
      .orderBy(desc(product.id))
      .limit(query.pageSize)
      .offset(query.blocked ? 0 : (query.page - 1) * query.pageSize),
    db.select({ value: count() }).from(product).leftJoin(marketplaceOffer, eq(marketplaceOffer.productId, product.id)).where(where),
  ]);
  const [blockers, { markupPercent }] = await Promise.all([blockersOf(db, port, rows, pictures), readChannelSettings(db)]);
  return {
    rows: rows.map((row): OfferRow => {
      return {
        ...productForSale(row),
        ebayStatus: row.ebayStatus,
        channelPrice: channelPrice(row, markupPercent),
        channelPriceBasis: channelPriceBasis(row, markupPercent),
        offer: row.offer && {
          sku: row.offer.sku,
          marketplaceId: row.offer.marketplaceId,
          offerId: row.offer.offerId,
          listingId: row.offer.listingId,
          status: row.offer.status,
          endReason: row.offer.endReason,
          pushedQuantity: row.offer.pushedQuantity,
          pushedPrice: row.offer.pushedPrice,
          lastPushedAt: row.offer.lastPushedAt,
          lastError: row.offer.lastError,
          lastErrorAt: row.offer.lastErrorAt,
        },
        blocker: blockers.get(row.id) ?? null,
      };
    }),
    total: blockedTotal ?? total?.value ?? 0,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Actions
// ---------------------------------------------------------------------------------------------------------------

type ActionContext = WriteContext;
type ActionName = "publish" | "revise" | "withdraw" | "republish";

/** Lists the products on the marketplace: item and offer written whole, then published. */
export function publishOffers(db: Db, port: MarketplacePort, productIds: readonly number[], actor: MarketplaceActor, pictures = shopProductPictures()) {
  return forEachProduct({ db, port, actor, pictures }, productIds, "publish", (context, id) => list(context, id, "publish"));
}

/** Rewrites listed products' items and offers from the product as it is now (price, quantity, text, pictures, categories). */
export function reviseOffers(db: Db, port: MarketplacePort, productIds: readonly number[], actor: MarketplaceActor, pictures = shopProductPictures()) {
  return forEachProduct({ db, port, actor, pictures }, productIds, "revise", revise);
}

/** Ends the products' listings; their offers stay on the marketplace for a republish. */
export function withdrawOffers(db: Db, port: MarketplacePort, productIds: readonly number[], actor: MarketplaceActor, pictures = shopProductPictures()) {
  return forEachProduct({ db, port, actor, pictures }, productIds, "withdraw", (context, id) => endListing(context, id, "STAFF"));
}

/** Lists withdrawn products again, each under a new listing id. */
export function republishOffers(db: Db, port: MarketplacePort, productIds: readonly number[], actor: MarketplaceActor, pictures = shopProductPictures()) {
  return forEachProduct({ db, port, actor, pictures }, productIds, "republish", (context, id) => list(context, id, "republish"));
}

/** One after the other (eBay limits calls), each product on its own: a failure is its result, not the selection's end. */
async function forEachProduct(
  context: ActionContext,
  productIds: readonly number[],
  action: ActionName,
  act: (context: ActionContext, productId: number) => Promise<Done>,
): Promise<OfferActionOutcome> {
  const ids = [...new Set(productIds)];
  const names = new Map((await context.db.select({ id: product.id, name: product.name }).from(product).where(inArray(product.id, ids))).map((row) => [row.id, row.name]));
  const results: OfferActionOutcome["results"] = [];
  for (const productId of ids) {
    const name = names.get(productId);
    if (name === undefined) {
      results.push({ productId, name: `Product ${productId}`, ok: false, message: `Product ${productId} does not exist.`, listingId: null });
      continue;
    }
    try {
      const done = await act(context, productId);
      results.push({ productId, name, ok: true, ...done });
    } catch (error) {
      results.push({ productId, name, ok: false, message: await failureMessage(context, productId, name, action, error), listingId: null });
    }
  }
  const succeeded = results.filter((result) => result.ok).length;
  return { results, succeeded, failed: results.length - succeeded };
}

/** What staff read about a failed action; a marketplace refusal is also kept on the offer and in the logbook. */
async function failureMessage(context: ActionContext, productId: number, name: string, action: ActionName, error: unknown): Promise<string> {
  if (error instanceof MarketplaceError) {
    await recordRefusal(context, productId, name, action, error);
    return error.message;
  }
  if (error instanceof AppError) return error.message;
  logger.error({ event: "EBAY_API", productId, action, err: error }, "a marketplace action failed unexpectedly");
  return "Something went wrong; the server log has the details.";
}

async function recordRefusal({ db, actor }: ActionContext, productId: number, name: string, action: ActionName, error: MarketplaceError): Promise<void> {
  const now = new Date();
  await db.transaction(async (tx) => {
    const [stored] = await tx.select().from(marketplaceOffer).where(eq(marketplaceOffer.productId, productId)).for("update");
    const failure = { lastError: error.message, lastErrorAt: now };
    // A product refused on its first publish gets its offer row, so the table and the overview show why.
    if (stored) await tx.update(marketplaceOffer).set(failure).where(eq(marketplaceOffer.productId, productId));
    else await tx.insert(marketplaceOffer).values({ productId, sku: productSku(productId), marketplaceId: env.EBAY_MARKETPLACE_ID, ...failure });
    await logOfferChange(tx, productId, {
      userId: actor.userId,
      logLevel: "ERROR",
      previousState: stored ? offerState(stored) : null,
      errorData: { call: error.call, status: error.status, details: error.details, message: error.message },
      description: `eBay refused to ${action} product ${productId} (${name}): ${error.message}`,
    });
  });
}

const listedWords = { publish: "published", republish: "republished", relist: "relisted now that it is back in stock" } as const;

/**
 * Publish (a product not listed yet), republish (a withdrawn one) and relist (one the shop ended at 0, now back in
 * stock: the quantity push). The marketplace's offer for the SKU is looked up first, so a publish retried after a
 * crash takes the offer (and live listing) it made before instead of a second one.
 */
export async function list({ db, port, actor, pictures }: ActionContext, productId: number, action: "publish" | "republish" | "relist"): Promise<Done> {
  const stored = await readStoredOffer(db, productId);
  if (stored?.status === "PUBLISHED") throw new AppError("CONFLICT", `Already on eBay as listing ${stored.listingId}; revise it to change it.`);
  if (action !== "publish" && stored?.status !== "WITHDRAWN") throw new AppError("CONFLICT", "Not withdrawn from eBay: publish it instead.");
  const source = await readOfferSource(db, productId, pictures);
  const blocker = listingBlocker(source, "publish");
  if (blocker) throw new AppError("PRECONDITION_FAILED", blocker);
  // eBay refuses a listing without its category's required item specifics or in a condition it does not take only at
  // publishOffer, after the item and offer were written: checked here first, so that nothing is sent.
  const expectedSite = stored?.marketplaceId ?? env.EBAY_MARKETPLACE_ID;
  const ruleBlocker = listingBlocker(source, "publish", await rulesOfCategory(db, port, expectedSite, source.ebayCategoryId));
  if (ruleBlocker) throw new AppError("PRECONDITION_FAILED", ruleBlocker);

  const sku = productSku(productId);
  const existing = await port.getOffer(sku);
  const marketplaceId: MarketplaceId = stored?.marketplaceId ?? existing?.marketplaceId ?? env.EBAY_MARKETPLACE_ID;
  // Read from the cache just filled; a SKU eBay already offers on another site is checked against that site's rules.
  const { item, offer } = buildListing(source, marketplaceId, await priceOnMarketplace(db, source), await rulesOfCategory(db, port, marketplaceId, source.ebayCategoryId));
  await putItem(port, item);
  let offerId: string;
  let listingId: string;
  if (existing) {
    offerId = existing.offerId;
    await port.updateOffer(offerId, offer);
    // A listing eBay ended is not taken over: publishing gives the offer a new one.
    const live = existing.status === "PUBLISHED" && existing.listingId !== null && !existing.listingEnded;
    listingId = live ? existing.listingId! : (await port.publishOffer(offerId)).listingId;
  } else {
    offerId = (await port.createOffer(offer)).offerId;
    listingId = (await port.publishOffer(offerId)).listingId;
  }

  const now = new Date();
  const written = {
    sku,
    marketplaceId,
    offerId,
    listingId,
    status: "PUBLISHED" as const,
    endReason: null,
    relistClaimedAt: null,
    pushedQuantity: item.quantity,
    pushedPrice: offer.price,
    lastPushedAt: now,
    lastError: null,
    lastErrorAt: null,
  };
  // A relist names the listing that ended at 0 (the row forgets it when it ends; the logbook keeps it).
  const endedListing = action === "relist" ? await endedListingId(db, productId) : null;
  await db.transaction(async (tx) => {
    await tx.insert(marketplaceOffer).values({ productId, ...written }).onConflictDoUpdate({ target: marketplaceOffer.productId, set: written });
    // The relist follows stock, not staff: the product's channel choice stays what staff made it.
    await pushIfMoved(tx, productId, { quantity: item.quantity, price: offer.price }, action === "relist" ? {} : { ebayStatus: "ONLINE" });
    await logOfferChange(tx, productId, {
      userId: actor.userId,
      previousState: stored ? { ...offerState(stored), ...(endedListing ? { listingId: endedListing } : {}) } : null,
      newState: { ...offerState(written), title: item.title, categoryId: offer.categoryId },
      description:
        `Product ${productId} (${source.name}) ${listedWords[action]} on eBay (${marketplaceId}) as listing ${listingId}` +
        (endedListing ? ` (new listing; the one that ended at 0 was ${endedListing})` : "") +
        `, ${item.quantity} at ${offer.price.toFixed(2)}`,
    });
  });
  return { listingId, message: null };
}

/** Writes a listed product's item and offer whole again, from the product as it is now. */
async function revise({ db, port, actor, pictures }: ActionContext, productId: number): Promise<Done> {
  const stored = await readStoredOffer(db, productId);
  if (stored?.status !== "PUBLISHED" || !stored.offerId) throw new AppError("CONFLICT", "Not on eBay: publish it first.");
  const source = await readOfferSource(db, productId, pictures);
  const { item, offer } = buildListing(source, stored.marketplaceId, await priceOnMarketplace(db, source), await rulesOfCategory(db, port, stored.marketplaceId, source.ebayCategoryId));
  await putItem(port, item);
  await port.updateOffer(stored.offerId, offer);

  const now = new Date();
  const written = { pushedQuantity: item.quantity, pushedPrice: offer.price, lastPushedAt: now, lastError: null, lastErrorAt: null };
  await db.transaction(async (tx) => {
    await tx.update(marketplaceOffer).set({ ...written, ...countRevision(now) }).where(eq(marketplaceOffer.productId, productId));
    await pushIfMoved(tx, productId, { quantity: item.quantity, price: offer.price });
    await logOfferChange(tx, productId, {
      userId: actor.userId,
      previousState: offerState(stored),
      newState: { ...offerState({ ...stored, ...written }), title: item.title, categoryId: offer.categoryId },
      description: `Listing ${stored.listingId} of product ${productId} (${source.name}) revised on eBay: ${item.quantity} at ${offer.price.toFixed(2)}`,
    });
  });
  return { listingId: stored.listingId, message: null };
}
