import "server-only";
import { gt } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { marketplaceOffer, product } from "@/server/db/schema";
import type { MarketplaceOfferState, MarketplacePort } from "@/server/integrations/marketplace/port";
import { readPublishedOffers } from "./published-offers";
import type { QuantityMismatch, Reconciliation, ReconciliationQuery } from "./schemas";

/** Offers asked about at the same time: a page answers in seconds without a burst eBay would throttle. */
const PARALLEL_ASKS = 5;

/**
 * A page of published offers, in product id order after `afterId`, whose quantity on the marketplace differs from
 * the shop's stock. eBay has no call that lists offers, so each SKU is asked for on its own; the page after starts at
 * `nextAfterId` (null on the last page). The fix is a quantity push (admin.ebay.pushQuantity).
 */
export async function findQuantityMismatches(db: Db, port: MarketplacePort, input: ReconciliationQuery): Promise<Reconciliation> {
  const columns = { productId: marketplaceOffer.productId, sku: marketplaceOffer.sku, name: product.name, stock: product.stock };
  const offers = await readPublishedOffers(db, columns, gt(marketplaceOffer.productId, input.afterId), input.limit);

  const states = new Array<MarketplaceOfferState | null>(offers.length);
  let next = 0;
  const ask = async () => {
    while (next < offers.length) {
      const index = next++;
      states[index] = await port.getOffer(offers[index]!.sku);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_ASKS, offers.length) }, ask));

  const mismatches = offers.flatMap((offer, index): QuantityMismatch[] => {
    const marketplaceQuantity = states[index]?.quantity ?? null;
    if (marketplaceQuantity === offer.stock) return [];
    return [{ productId: offer.productId, name: offer.name, sku: offer.sku, shopQuantity: offer.stock, marketplaceQuantity }];
  });
  return {
    checked: offers.length,
    mismatches,
    nextAfterId: offers.length === input.limit ? offers.at(-1)!.productId : null,
  };
}
