import type { AdminBadgeTone } from "@/components/ui/admin-badge";
import type { MarketplaceId, MarketplaceOfferStatus } from "@/lib/enums";
import type { MarketplaceOverview } from "@/server/marketplace/schemas";

/** An offer's status in the table, "NONE" being a product never offered. */
export type OfferStatusChoice = MarketplaceOfferStatus | "NONE";

export const offerStatusLabels: Record<OfferStatusChoice, string> = {
  NONE: "No offer",
  UNPUBLISHED: "Unpublished",
  PUBLISHED: "Published",
  WITHDRAWN: "Withdrawn",
};

export const offerStatusTones: Record<OfferStatusChoice, AdminBadgeTone> = {
  NONE: "neutral",
  UNPUBLISHED: "brass",
  PUBLISHED: "success",
  WITHDRAWN: "warning",
};

const ebayHosts: Record<MarketplaceId, string> = { EBAY_NL: "www.ebay.nl", EBAY_DE: "www.ebay.de" };

/** Where a buyer sees the listing: the sandbox marketplace's own page, or the listing on the eBay site it is on. */
export function listingUrl(kind: MarketplaceOverview["kind"], marketplaceId: MarketplaceId, listingId: string): string {
  const id = encodeURIComponent(listingId);
  return kind === "sandbox" ? `/sandbox/ebay/${id}` : `https://${ebayHosts[marketplaceId]}/itm/${id}`;
}
