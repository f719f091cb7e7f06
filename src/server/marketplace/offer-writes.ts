import "server-only";
import type { Decimal } from "decimal.js";
import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { logbook, marketplaceOffer, product } from "@/server/db/schema";
import { MarketplaceError, type MarketplaceItem, type MarketplacePort } from "@/server/integrations/marketplace/port";
import { channelPrice } from "./channel-price";
import { readChannelSettings } from "./channel-settings";
import type { ProductPictures } from "./offer-record";
import { requestQuantityPush } from "./quantity-push";
import { marketplaceDay } from "./revisions";

/*
 * What every write of an offer shares (offers.ts's publish and revise, listing-end.ts's withdraw and the relist of the
 * quantity push): the stored offer and its logbook state, the item written whole, the eBay price, the revision
 * count, and the push of a change that raced the write.
 */

export type MarketplaceActor = { userId: string | null };
export type StoredOffer = typeof marketplaceOffer.$inferSelect;
/** What one product's write came to when it worked. */
export type Done = { listingId: string | null; message: string | null };
export type WriteContext = { db: Db; port: MarketplacePort; actor: MarketplaceActor; pictures: ProductPictures };

/** An offer as the logbook keeps it. */
export function offerState(offer: Pick<StoredOffer, "status" | "marketplaceId" | "offerId" | "listingId" | "pushedQuantity" | "pushedPrice"> & { endReason?: StoredOffer["endReason"] }) {
  const { status, marketplaceId, offerId, listingId, pushedQuantity, pushedPrice, endReason } = offer;
  return { status, marketplaceId, offerId, listingId, pushedQuantity, pushedPrice, endReason: endReason ?? null };
}

export async function readStoredOffer(db: Db, productId: number): Promise<StoredOffer | undefined> {
  const [stored] = await db.select().from(marketplaceOffer).where(eq(marketplaceOffer.productId, productId));
  return stored;
}

/** Writes the inventory item; the marketplace answers per item, so a refusal of this one is thrown as one. */
export async function putItem(port: MarketplacePort, item: MarketplaceItem): Promise<void> {
  const [result] = await port.putItems([item]);
  if (!result?.ok) {
    const status = result?.statusCode ?? null;
    throw new MarketplaceError("putItems", status, [], `eBay refused the item ${item.sku}: ${result?.error ?? "no answer for it"}`);
  }
}

/**
 * After a write that told the marketplace `pushed`: a stock or price change that committed since the product was
 * read (and found no published offer yet, or raced the write) gets its push now. The product's row is locked first,
 * so a change either committed before (and is read here) or waits and then sees this offer published.
 */
export async function pushIfMoved(tx: Db, productId: number, pushed: { quantity: number; price: Decimal }, changes: Partial<typeof product.$inferInsert> = {}): Promise<void> {
  const columns = { stock: product.stock, price: product.price, ebayPrice: product.ebayPrice };
  const [current] = Object.keys(changes).length
    ? await tx.update(product).set(changes).where(eq(product.id, productId)).returning(columns)
    : await tx.select(columns).from(product).where(eq(product.id, productId)).for("share");
  if (!current) return;
  const { markupPercent } = await readChannelSettings(tx);
  if (current.stock !== pushed.quantity || !channelPrice(current, markupPercent).equals(pushed.price)) await requestQuantityPush(tx, productId);
}

/** One more revision of a listing today (the marketplace's day), against its REVISIONS_PER_DAY. */
export const countRevision = (now: Date) => {
  const day = marketplaceDay(now);
  return {
    revisionDay: day,
    revisionsToday: sql`case when ${marketplaceOffer.revisionDay} = ${day} then ${marketplaceOffer.revisionsToday} + 1 else 1 end`,
  };
};

/** The product's eBay price under the settings as stored now (channel-price.ts). */
export async function priceOnMarketplace(db: Db, source: { productId: number; price: Decimal }): Promise<Decimal> {
  const [[row], settings] = await Promise.all([db.select({ ebayPrice: product.ebayPrice }).from(product).where(eq(product.id, source.productId)), readChannelSettings(db)]);
  return channelPrice({ price: source.price, ebayPrice: row?.ebayPrice ?? null }, settings.markupPercent);
}

/** The listing an offer ended at 0 had, from the logbook entry that ended it. */
export async function endedListingId(db: Db, productId: number): Promise<string | null> {
  const [entry] = await db
    .select({ listingId: sql<string | null>`${logbook.previousState}->>'listingId'` })
    .from(logbook)
    .where(and(eq(logbook.entityType, "MARKETPLACE_OFFER"), eq(logbook.entityId, String(productId)), sql`${logbook.newState}->>'endReason' is not null`))
    .orderBy(desc(logbook.id))
    .limit(1);
  return entry?.listingId ?? null;
}
