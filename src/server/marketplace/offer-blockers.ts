import "server-only";
import { desc, eq, type SQL } from "drizzle-orm";
import { env } from "@/env";
import type { MarketplaceId } from "@/lib/enums";
import type { Db } from "@/server/db/client";
import { marketplaceOffer, product } from "@/server/db/schema";
import type { MarketplacePort } from "@/server/integrations/marketplace/port";
import { logger } from "@/server/logger";
import { readCategoryRules, type CategoryRules } from "./category-rules";
import { listingBlocker, readOfferSources, type OfferSource, type ProductPictures } from "./offer-record";
import { isBlocked } from "./schemas";

/*
 * What keeps products off the marketplace, as the offers table shows it and its "Blocked" filter finds it: the
 * shop's own checks and, against each eBay category's cached rules, the item specifics and condition eBay requires.
 */

/** How many products the "Blocked" filter reads at a time. */
const CHUNK = 200;

/** A product as the blockers are worked out for it: published offers are revised (a sold-out one stays listed). */
export type BlockerRow = { id: number; offer: { status: string; marketplaceId: MarketplaceId } | null };

/** The rules of the categories the sources list in, per site; null for a site eBay could not be asked about. */
async function rulesFor(db: Db, port: MarketplacePort, wanted: Map<MarketplaceId, Set<string>>) {
  const rules = new Map<MarketplaceId, Map<string, CategoryRules> | null>();
  for (const [marketplaceId, categoryIds] of wanted) {
    try {
      rules.set(marketplaceId, await readCategoryRules(db, port, marketplaceId, [...categoryIds]));
    } catch (error) {
      // The table still shows the shop's own checks; publishing asks again and says why it cannot.
      logger.warn({ event: "EBAY_API", marketplaceId, err: error }, "eBay's category rules could not be read for the offers table");
      rules.set(marketplaceId, null);
    }
  }
  return rules;
}

/** Each product's blocker (null: none), with its category's rules where eBay could be asked for them. */
export async function blockersOf(db: Db, port: MarketplacePort, rows: readonly BlockerRow[], pictures: ProductPictures): Promise<Map<number, string | null>> {
  const sources = await readOfferSources(db, rows.map((row) => row.id), pictures);
  const siteOf = (row: BlockerRow): MarketplaceId => row.offer?.marketplaceId ?? env.EBAY_MARKETPLACE_ID;
  const wanted = new Map<MarketplaceId, Set<string>>();
  for (const row of rows) {
    const categoryId = sources.get(row.id)?.ebayCategoryId;
    if (categoryId && /^\d+$/.test(categoryId)) wanted.set(siteOf(row), (wanted.get(siteOf(row)) ?? new Set()).add(categoryId));
  }
  const rules = await rulesFor(db, port, wanted);
  const blockers = new Map<number, string | null>();
  for (const row of rows) {
    const source: OfferSource | undefined = sources.get(row.id);
    if (!source) continue;
    const categoryRules = source.ebayCategoryId ? rules.get(siteOf(row))?.get(source.ebayCategoryId) : null;
    blockers.set(row.id, listingBlocker(source, row.offer?.status === "PUBLISHED" ? "revise" : "publish", categoryRules));
  }
  return blockers;
}

/** The ids of the products matching `where` that something staff can fix keeps off the marketplace, newest first. */
export async function blockedProductIds(db: Db, port: MarketplacePort, where: SQL | undefined, pictures: ProductPictures): Promise<number[]> {
  const rows = await db
    .select({ id: product.id, status: marketplaceOffer.status, marketplaceId: marketplaceOffer.marketplaceId })
    .from(product)
    .leftJoin(marketplaceOffer, eq(marketplaceOffer.productId, product.id))
    .where(where)
    .orderBy(desc(product.id));
  const blocked: number[] = [];
  for (let start = 0; start < rows.length; start += CHUNK) {
    const chunk = rows.slice(start, start + CHUNK).map((row) => ({ id: row.id, offer: row.status && row.marketplaceId ? { status: row.status, marketplaceId: row.marketplaceId } : null }));
    const blockers = await blockersOf(db, port, chunk, pictures);
    for (const row of chunk) if (isBlocked(blockers.get(row.id) ?? null)) blocked.push(row.id);
  }
  return blocked;
}
