import "server-only";
import { asc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { sandboxMarketplaceItem, sandboxMarketplaceOffer, sandboxMarketplaceOrder } from "@/server/db/schema";
import { asOfferRecord, asOrderRecord, marketplaceError, nextRevision, refusals, storable, type OrderRecord, type Refusal } from "./sandbox-records";

/*
 * The sandbox marketplace's rows as its calls (`sandbox.ts`) write them: locked in one order so that calls at the same
 * time wait instead of deadlocking, an offer's writes counted as eBay counts revisions, and written back in one
 * statement.
 */

/** Rewrites an order record under a lock, and marks it modified, as eBay does for a shipment or a refund. */
export async function changeOrder(db: Db, call: string, orderId: string, change: (order: OrderRecord, now: Date) => OrderRecord): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(sandboxMarketplaceOrder).where(eq(sandboxMarketplaceOrder.orderId, orderId)).for("update");
    if (!row) throw marketplaceError(call, refusals.orderNotFound(orderId));
    // Never earlier than the last change, so a poll by modification time cannot miss it on a clock step.
    const now = new Date(Math.max(Date.now(), row.lastModifiedAt.getTime() + 1));
    const changed = { ...change(asOrderRecord(row.record), now), lastModifiedDate: now.toISOString() };
    await tx.update(sandboxMarketplaceOrder).set({ record: storable(changed), lastModifiedAt: now }).where(eq(sandboxMarketplaceOrder.orderId, orderId));
  });
}

export type OfferRow = typeof sandboxMarketplaceOffer.$inferSelect;
export type ItemWrite = Pick<typeof sandboxMarketplaceItem.$inferSelect, "sku" | "record" | "quantity">;

/**
 * Offers locked for a write, by offer id. Always taken in offer id order and before their items (as a sale takes
 * them), so calls at the same time wait for each other instead of deadlocking.
 */
export async function lockOffers(tx: Db, where: SQL): Promise<Map<string, OfferRow>> {
  const rows = await tx.select().from(sandboxMarketplaceOffer).where(where).orderBy(asc(sandboxMarketplaceOffer.offerId)).for("update");
  return new Map(rows.map((row) => [row.offerId, row]));
}

export async function lockItems(tx: Db, skus: string[]) {
  if (skus.length === 0) return new Map<string, typeof sandboxMarketplaceItem.$inferSelect>();
  const rows = await tx.select().from(sandboxMarketplaceItem).where(inArray(sandboxMarketplaceItem.sku, skus)).orderBy(asc(sandboxMarketplaceItem.sku)).for("update");
  return new Map(rows.map((row) => [row.sku, row]));
}

/** The offer's counts after one more write now, or the refusal when its live listing was revised too often today. */
export function countWrite(offer: OfferRow, now: Date): Pick<OfferRow, "revisionDay" | "revisionsToday" | "writeCount"> | Refusal {
  const writeCount = offer.writeCount + 1;
  if (offer.status !== "PUBLISHED") return { revisionDay: offer.revisionDay, revisionsToday: offer.revisionsToday, writeCount };
  const revision = nextRevision(offer, now);
  return revision ? { ...revision, writeCount } : refusals.revisionLimit();
}

/** Writes locked offers back in one statement: records, quantities, prices and counts as computed. */
export async function saveOffers(tx: Db, offers: OfferRow[]): Promise<void> {
  if (offers.length === 0) return;
  const rows = offers.map(
    (offer) =>
      sql`(${offer.offerId}, ${JSON.stringify(offer.record)}::jsonb, ${offer.availableQuantity}::integer, ${offer.price.toFixed(2)}::numeric, ${offer.revisionDay}::date, ${offer.revisionsToday}::integer, ${offer.writeCount}::integer)`,
  );
  await tx.execute(sql`
    update sandbox_marketplace_offer as o
    set record = v.record, available_quantity = v.available_quantity, price = v.price, revision_day = v.revision_day,
        revisions_today = v.revisions_today, write_count = v.write_count, updated_at = now()
    from (values ${sql.join(rows, sql`, `)}) as v(offer_id, record, available_quantity, price, revision_day, revisions_today, write_count)
    where o.offer_id = v.offer_id`);
}

/** Creates or replaces inventory items in one statement. */
export async function saveItems(tx: Db, items: ItemWrite[]): Promise<void> {
  if (items.length === 0) return;
  await tx
    .insert(sandboxMarketplaceItem)
    .values(items)
    .onConflictDoUpdate({ target: sandboxMarketplaceItem.sku, set: { record: sql`excluded.record`, quantity: sql`excluded.quantity`, updatedAt: new Date() } });
}

/** The id of the offer's listing when eBay ended it itself (ENDED, EBAY_ENDED), or null. */
export function endedListing(offer: Pick<OfferRow, "record" | "listingId">): string | null {
  const { listing } = asOfferRecord(offer.record);
  return listing && listing.listingStatus !== "ACTIVE" ? listing.listingId : null;
}

/**
 * eBay ends a listing itself: its customer service (EBAY_ENDED), or a sold-out listing without out-of-stock control
 * (ENDED). Buyers can no longer buy it; the offer still reads published, with the listing's status, and withdrawing
 * it is refused as eBay refuses it. The sandbox's stand-in for what the shop cannot cause, for tests and demos.
 */
export async function endSandboxListing(db: Db, sku: string, listingStatus: "ENDED" | "EBAY_ENDED" = "EBAY_ENDED"): Promise<string | null> {
  return db.transaction(async (tx) => {
    const [offer] = await tx.select().from(sandboxMarketplaceOffer).where(eq(sandboxMarketplaceOffer.sku, sku)).for("update");
    const record = offer && asOfferRecord(offer.record);
    if (!offer || offer.status !== "PUBLISHED" || !record?.listing) return null;
    await tx
      .update(sandboxMarketplaceOffer)
      .set({ status: "WITHDRAWN", record: storable({ ...record, listing: { ...record.listing, listingStatus } }) })
      .where(eq(sandboxMarketplaceOffer.offerId, offer.offerId));
    return record.listing.listingId;
  });
}
