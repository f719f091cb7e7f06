import "server-only";
import { and, count, desc, eq, gt, ilike, inArray, isNotNull, isNull, or, sql, type SQL } from "drizzle-orm";
import { env } from "@/env";
import type { MarketplaceId } from "@/lib/enums";
import { productForSale } from "@/server/catalog/product-for-sale";
import type { Db } from "@/server/db/client";
import { marketplaceOffer, product } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { getMarketplace } from "@/server/integrations/marketplace/marketplace";
import { MarketplaceError, type MarketplaceItem, type MarketplacePort } from "@/server/integrations/marketplace/port";
import { escapeLike } from "@/server/logbook/service";
import { logger } from "@/server/logger";
import { rulesOfCategory } from "./category-rules";
import { logOfferChange } from "./logbook";
import { blockedProductIds, blockersOf } from "./offer-blockers";
import { buildListing, listingBlocker, productSku, readOfferSource, shopProductPictures, type ProductPictures } from "./offer-record";
import { requestQuantityPush } from "./quantity-push";
import type { OfferActionOutcome, OfferList, OfferListQuery, OfferRow } from "./schemas";
import { marketplaceDay } from "./revisions";

/*
 * Staff's offers on the marketplace (/admin/ebay/manage-ads): the table of products with their offer, and the actions
 * on a selection. The marketplace is called outside any transaction (a slow marketplace never holds a product's
 * lock); what it answered is written afterwards in one transaction with its logbook entry. Each product of a
 * selection succeeds or fails on its own, and a refusal is kept on the offer (lastError) for the table and the
 * overview to show.
 */

export type MarketplaceActor = { userId: string | null };

type StoredOffer = typeof marketplaceOffer.$inferSelect;

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
      .select({ id: product.id, name: product.name, price: product.price, stock: product.stock, ebayStatus: product.ebayStatus, offer: marketplaceOffer })
      .from(product)
      .leftJoin(marketplaceOffer, eq(marketplaceOffer.productId, product.id))
      .where(where)
      .orderBy(desc(product.id))
      .limit(query.pageSize)
      .offset(query.blocked ? 0 : (query.page - 1) * query.pageSize),
    db.select({ value: count() }).from(product).leftJoin(marketplaceOffer, eq(marketplaceOffer.productId, product.id)).where(where),
  ]);
  const blockers = await blockersOf(db, port, rows, pictures);
  return {
    rows: rows.map((row): OfferRow => {
      return {
        ...productForSale(row),
        ebayStatus: row.ebayStatus,
        offer: row.offer && {
          sku: row.offer.sku,
          marketplaceId: row.offer.marketplaceId,
          offerId: row.offer.offerId,
          listingId: row.offer.listingId,
          status: row.offer.status,
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

type ActionContext = { db: Db; port: MarketplacePort; actor: MarketplaceActor; pictures: ProductPictures };
type ActionName = "publish" | "revise" | "withdraw" | "republish";
/** What one product's action came to when it worked. */
type Done = { listingId: string | null; message: string | null };

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
  return forEachProduct({ db, port, actor, pictures }, productIds, "withdraw", withdraw);
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

/** An offer as the logbook keeps it. */
function offerState(offer: Pick<StoredOffer, "status" | "marketplaceId" | "offerId" | "listingId" | "pushedQuantity" | "pushedPrice">) {
  const { status, marketplaceId, offerId, listingId, pushedQuantity, pushedPrice } = offer;
  return { status, marketplaceId, offerId, listingId, pushedQuantity, pushedPrice };
}

async function readStoredOffer(db: Db, productId: number): Promise<StoredOffer | undefined> {
  const [stored] = await db.select().from(marketplaceOffer).where(eq(marketplaceOffer.productId, productId));
  return stored;
}

/** Writes the inventory item; the marketplace answers per item, so a refusal of this one is thrown as one. */
async function putItem(port: MarketplacePort, item: MarketplaceItem): Promise<void> {
  const [result] = await port.putItems([item]);
  if (!result?.ok) {
    const status = result?.statusCode ?? null;
    throw new MarketplaceError("putItems", status, [], `eBay refused the item ${item.sku}: ${result?.error ?? "no answer for it"}`);
  }
}

/**
 * After a write that told the marketplace `pushedQuantity`: a stock change that committed since the product was read
 * (and found no published offer yet, or raced the write) gets its push now. The product's row is locked first, so a
 * stock change either committed before (and its stock is read here) or waits and then sees this offer published.
 */
async function pushIfStockMoved(tx: Db, productId: number, pushedQuantity: number, changes: Partial<typeof product.$inferInsert> = {}): Promise<void> {
  const [current] = Object.keys(changes).length
    ? await tx.update(product).set(changes).where(eq(product.id, productId)).returning({ stock: product.stock })
    : await tx.select({ stock: product.stock }).from(product).where(eq(product.id, productId)).for("share");
  if (current && current.stock !== pushedQuantity) await requestQuantityPush(tx, productId);
}

/** One more revision of a listing today (the marketplace's day), against its REVISIONS_PER_DAY. */
const countRevision = (now: Date) => {
  const day = marketplaceDay(now);
  return {
    revisionDay: day,
    revisionsToday: sql`case when ${marketplaceOffer.revisionDay} = ${day} then ${marketplaceOffer.revisionsToday} + 1 else 1 end`,
  };
};

/**
 * Publish (a product not listed yet) and republish (a withdrawn one). The marketplace's offer for the SKU is looked
 * up first, so a publish retried after a crash takes the offer (and listing) it made before instead of a second one.
 */
async function list({ db, port, actor, pictures }: ActionContext, productId: number, action: "publish" | "republish"): Promise<Done> {
  const stored = await readStoredOffer(db, productId);
  if (stored?.status === "PUBLISHED") throw new AppError("CONFLICT", `Already on eBay as listing ${stored.listingId}; revise it to change it.`);
  if (action === "republish" && stored?.status !== "WITHDRAWN") throw new AppError("CONFLICT", "Not withdrawn from eBay: publish it instead.");
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
  const { item, offer } = buildListing(source, marketplaceId, await rulesOfCategory(db, port, marketplaceId, source.ebayCategoryId));
  await putItem(port, item);
  let offerId: string;
  let listingId: string;
  if (existing) {
    offerId = existing.offerId;
    await port.updateOffer(offerId, offer);
    listingId = existing.status === "PUBLISHED" && existing.listingId ? existing.listingId : (await port.publishOffer(offerId)).listingId;
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
    pushedQuantity: item.quantity,
    pushedPrice: offer.price,
    lastPushedAt: now,
    lastError: null,
    lastErrorAt: null,
  };
  await db.transaction(async (tx) => {
    await tx.insert(marketplaceOffer).values({ productId, ...written }).onConflictDoUpdate({ target: marketplaceOffer.productId, set: written });
    await pushIfStockMoved(tx, productId, item.quantity, { ebayStatus: "ONLINE" });
    await logOfferChange(tx, productId, {
      userId: actor.userId,
      previousState: stored ? offerState(stored) : null,
      newState: { ...offerState(written), title: item.title, categoryId: offer.categoryId },
      description: `Product ${productId} (${source.name}) ${action === "publish" ? "published" : "republished"} on eBay (${marketplaceId}) as listing ${listingId}, ${item.quantity} at ${offer.price.toFixed(2)}`,
    });
  });
  return { listingId, message: null };
}

/** Writes a listed product's item and offer whole again, from the product as it is now. */
async function revise({ db, port, actor, pictures }: ActionContext, productId: number): Promise<Done> {
  const stored = await readStoredOffer(db, productId);
  if (stored?.status !== "PUBLISHED" || !stored.offerId) throw new AppError("CONFLICT", "Not on eBay: publish it first.");
  const source = await readOfferSource(db, productId, pictures);
  const { item, offer } = buildListing(source, stored.marketplaceId, await rulesOfCategory(db, port, stored.marketplaceId, source.ebayCategoryId));
  await putItem(port, item);
  await port.updateOffer(stored.offerId, offer);

  const now = new Date();
  const written = { pushedQuantity: item.quantity, pushedPrice: offer.price, lastPushedAt: now, lastError: null, lastErrorAt: null };
  await db.transaction(async (tx) => {
    await tx.update(marketplaceOffer).set({ ...written, ...countRevision(now) }).where(eq(marketplaceOffer.productId, productId));
    await pushIfStockMoved(tx, productId, item.quantity);
    await logOfferChange(tx, productId, {
      userId: actor.userId,
      previousState: offerState(stored),
      newState: { ...offerState({ ...stored, ...written }), title: item.title, categoryId: offer.categoryId },
      description: `Listing ${stored.listingId} of product ${productId} (${source.name}) revised on eBay: ${item.quantity} at ${offer.price.toFixed(2)}`,
    });
  });
  return { listingId: stored.listingId, message: null };
}

async function withdraw({ db, port, actor }: ActionContext, productId: number): Promise<Done> {
  const stored = await readStoredOffer(db, productId);
  if (stored?.status !== "PUBLISHED" || !stored.offerId) throw new AppError("CONFLICT", "Not on eBay: there is nothing to withdraw.");
  await port.withdrawOffer(stored.offerId);

  const written = { status: "WITHDRAWN" as const, listingId: null, lastError: null, lastErrorAt: null };
  await db.transaction(async (tx) => {
    await tx.update(marketplaceOffer).set(written).where(eq(marketplaceOffer.productId, productId));
    await tx.update(product).set({ ebayStatus: "OFFLINE" }).where(eq(product.id, productId));
    await logOfferChange(tx, productId, {
      userId: actor.userId,
      previousState: offerState(stored),
      newState: offerState({ ...stored, ...written }),
      description: `Listing ${stored.listingId} of product ${productId} withdrawn from eBay`,
    });
  });
  return { listingId: null, message: null };
}
