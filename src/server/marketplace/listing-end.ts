import "server-only";
import { and, eq } from "drizzle-orm";
import type { MarketplaceEndReason } from "@/lib/enums";
import { marketplaceOffer, product } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { MarketplaceError, type MarketplacePort } from "@/server/integrations/marketplace/port";
import { logOfferChange } from "./logbook";
import { offerState, readStoredOffer, type Done, type WriteContext } from "./offer-writes";

/*
 * Ending a listing: staff's withdraw, and the quantity push ending it when stock reaches 0 under the "end" setting.
 * eBay may have ended the listing itself before (sold out without out-of-stock control, or its customer service):
 * it then refuses the withdraw, and the offer would stay "published" in the shop for ever, every push refused. A
 * refusal is therefore checked against the offer as eBay reads it, and an offer whose listing is no longer live is
 * recorded as ended like any other.
 */

/** Whether the marketplace ended the listing now, or had ended it already. */
type Withdrawal = "withdrawn" | "already ended";

async function withdrawAtMarketplace(port: MarketplacePort, sku: string, offerId: string): Promise<Withdrawal> {
  try {
    await port.withdrawOffer(offerId);
    return "withdrawn";
  } catch (error) {
    // No answer, 429, 5xx: the listing may or may not have ended; the caller tries again.
    if (!(error instanceof MarketplaceError) || error.retryable) throw error;
    // eBay's error for a listing it ended (25713 "This Offer is not available", among others) is not specific
    // enough to act on by itself: the offer as eBay reads it now decides.
    const state = await port.getOffer(sku);
    if (state?.offerId === offerId && (state.status !== "PUBLISHED" || state.listingEnded)) return "already ended";
    throw error;
  }
}

const endedWords: Record<MarketplaceEndReason, string> = {
  STAFF: "withdrawn from eBay",
  OUT_OF_STOCK: "ended on eBay: stock reached 0, and it is relisted when stock returns",
  MARKETPLACE: "recorded as ended",
};

/**
 * Ends a published offer's listing and records why; the offer stays on the marketplace for a republish or relist.
 * STAFF takes the product off eBay (ebayStatus OFFLINE); OUT_OF_STOCK leaves the product meant for eBay, to be
 * relisted by the push when stock returns. A listing eBay had ended is recorded as MARKETPLACE on staff's withdraw.
 */
export async function endListing({ db, port, actor }: Pick<WriteContext, "db" | "port" | "actor">, productId: number, reason: "STAFF" | "OUT_OF_STOCK"): Promise<Done> {
  const stored = await readStoredOffer(db, productId);
  if (stored?.status !== "PUBLISHED" || !stored.offerId) throw new AppError("CONFLICT", "Not on eBay: there is nothing to withdraw.");
  const withdrawal = await withdrawAtMarketplace(port, stored.sku, stored.offerId);
  const endReason: MarketplaceEndReason = withdrawal === "already ended" && reason === "STAFF" ? "MARKETPLACE" : reason;

  const now = new Date();
  const written = {
    status: "WITHDRAWN" as const,
    listingId: null,
    endReason,
    relistClaimedAt: null,
    lastError: null,
    lastErrorAt: null,
    // Ended at 0, the listing holds nothing: a relist pushes the quantity whole.
    ...(reason === "OUT_OF_STOCK" ? { pushedQuantity: 0, lastPushedAt: now } : {}),
  };
  await db.transaction(async (tx) => {
    // Recorded only over the offer as it was read: another write that ended or relisted it meanwhile wins.
    const [ended] = await tx
      .update(marketplaceOffer)
      .set(written)
      .where(and(eq(marketplaceOffer.productId, productId), eq(marketplaceOffer.status, "PUBLISHED"), eq(marketplaceOffer.offerId, stored.offerId!)))
      .returning({ productId: marketplaceOffer.productId });
    if (!ended) return;
    // Stock that comes back while the listing ends queues a push either way (bookStock finds the offer published,
    // or ended at 0), and that push relists it.
    if (reason === "STAFF") await tx.update(product).set({ ebayStatus: "OFFLINE" }).where(eq(product.id, productId));
    const already = withdrawal === "already ended" ? " (eBay had already ended it)" : "";
    await logOfferChange(tx, productId, {
      userId: actor.userId,
      logLevel: withdrawal === "already ended" ? "WARNING" : "INFO",
      previousState: offerState(stored),
      newState: offerState({ ...stored, ...written }),
      description: `Listing ${stored.listingId} of product ${productId} ${endedWords[endReason]}${already}`,
    });
  });
  return { listingId: null, message: withdrawal === "already ended" ? `eBay had already ended listing ${stored.listingId}; recorded as ended.` : null };
}
