import type { Decimal } from "decimal.js";
import { z } from "zod";
import { rowId } from "@/lib/id";
import { listPageInput } from "@/lib/list-page";
import { marketplaceOfferStatuses, outOfStockActions, type BulkRunStatus, type ListingStatus, type MarketplaceEndReason, type MarketplaceId, type MarketplaceOfferStatus, type OutOfStockAction } from "@/lib/enums";
import type { ProductForSale } from "@/server/catalog/product-for-sale";
import { MARKUP_PERCENT_RANGE } from "./channel-price";

// The one price rule, for the product form to show the eBay price as it will be sent.
export { channelPrice, channelPriceBasis, MARKUP_PERCENT_RANGE } from "./channel-price";

/** The shop-wide eBay settings (/admin/ebay): the markup on list prices, and what a listing does at 0. */
export type ChannelSettings = { markupPercent: Decimal; outOfStock: OutOfStockAction };
export const channelSettingsInput = z.object({
  markupPercent: z
    .string()
    .trim()
    .regex(/^-?\d{1,3}(\.\d{1,2})?$/, "A percentage such as 12 or 12.5.")
    .refine((value) => Number(value) >= MARKUP_PERCENT_RANGE.min && Number(value) <= MARKUP_PERCENT_RANGE.max, `From ${MARKUP_PERCENT_RANGE.min} to ${MARKUP_PERCENT_RANGE.max} %.`),
  outOfStock: z.enum(outOfStockActions),
});
export type ChannelSettingsInput = z.output<typeof channelSettingsInput>;
/** What saving the settings did: the markup moved every markup-priced listing, through a bulk price update when one could start. */
export type ChannelSettingsSaved = { settings: ChannelSettings; markupChanged: boolean; bulkRunStarted: boolean; message: string | null };

/** Products picked in the offers table for an action (publish, revise, withdraw, republish). */
export const offerSelectionInput = z.object({
  productIds: z.array(rowId).min(1, "Pick at least one product.").max(100, "Pick at most 100 products at a time."),
});
export type OfferSelectionInput = z.input<typeof offerSelectionInput>;

/** The offers table's filters: "NONE" is a product with no offer yet. */
export const offerListInput = z.object({
  search: z.string().trim().max(100).optional(),
  status: z.enum([...marketplaceOfferStatuses, "NONE"]).optional(),
  /** Only offers whose last write failed. */
  failing: z.boolean().optional(),
  /** Only products with stock (or only without). */
  inStock: z.boolean().optional(),
  /** Only products something staff can fix keeps off the marketplace (a required eBay item specific, a condition, a picture, ...), not a lack of stock. */
  blocked: z.boolean().optional(),
  ...listPageInput.shape,
});
export type OfferListInput = z.input<typeof offerListInput>;
export type OfferListQuery = z.output<typeof offerListInput>;

/** A product in the offers table, with its offer when it has one. */
export type OfferRow = ProductForSale & {
  ebayStatus: ListingStatus;
  /** Null while the product has no offer. */
  offer: {
    sku: string;
    marketplaceId: MarketplaceId;
    offerId: string | null;
    listingId: string | null;
    status: MarketplaceOfferStatus;
    /** Why a WITHDRAWN offer's listing ended. */
    endReason: MarketplaceEndReason | null;
    pushedQuantity: number | null;
    pushedPrice: Decimal | null;
    lastPushedAt: Date | null;
    lastError: string | null;
    lastErrorAt: Date | null;
  } | null;
  /** The price eBay gets (the fixed eBay price, or the list price with the markup), and how it came about. */
  channelPrice: Decimal;
  channelPriceBasis: string;
  /**
   * What keeps the product from being published (no eBay category for its category, no picture, a required eBay item
   * specific it does not fill, a condition its eBay category does not take, ...), "; "-separated; null when nothing.
   */
  blocker: string | null;
};
export type OfferList = { rows: OfferRow[]; total: number };

/** The blocker of a product that only lacks stock: nothing for staff to fix in the product. */
export const notInStockReason = "Not in stock";

/** A blocker's reasons, one each (`OfferRow.blocker` joins them with "; "). */
export function blockerReasons(blocker: string | null): string[] {
  return blocker ? blocker.split("; ").filter(Boolean) : [];
}

/** Whether something staff can fix keeps the product off the marketplace: anything but a lack of stock. */
export function isBlocked(blocker: string | null): boolean {
  return blockerReasons(blocker).some((reason) => reason !== notInStockReason);
}

/** What an action did to each product picked: each succeeds or fails on its own. */
export type OfferActionOutcome = {
  results: { productId: number; name: string; ok: boolean; message: string | null; listingId: string | null }[];
  succeeded: number;
  failed: number;
};

/** What a bulk update of all offers rewrites. */
export const bulkUpdateInput = z
  .object({ price: z.boolean(), quantity: z.boolean(), description: z.boolean() })
  .refine((fields) => fields.price || fields.quantity || fields.description, { message: "Pick what to update: price, quantity or description." });
export type BulkUpdateInput = z.input<typeof bulkUpdateInput>;
/** What a bulk run rewrites, as checked: the prices, the quantities, the whole listings with their descriptions. */
export type BulkFields = z.output<typeof bulkUpdateInput>;

/** SPEC section 3's bulk marketplace progress; `progress` is null while no bulk update runs. */
export type BulkOfferProgress = {
  progress: {
    /** A whole percentage as text, as the marketplace job reports it. */
    currentPercent: string;
    /** The time left in words ("about 4 minutes"), from the pace so far; null until the pace is known. */
    estimatedTimeToCompletion: string | null;
    /** The same in milliseconds, for the top bar to look again when the run should be done; null until known. */
    msToCompletion: number | null;
    currentCount: number;
    totalCount: number;
  } | null;
};

/** A bulk update as staff see it: the latest on /admin/ebay, and what starting or cancelling one answers. */
export type BulkRunView = {
  id: number;
  status: BulkRunStatus;
  fields: BulkFields;
  totalCount: number;
  doneCount: number;
  failedCount: number;
  startedAt: Date;
  finishedAt: Date | null;
  lastError: string | null;
};

/** The /admin/ebay page: whether the marketplace is reachable, how orders and pushes are doing. */
export type MarketplaceOverview = {
  kind: "live" | "sandbox";
  connected: boolean;
  tokenValidUntil: Date | null;
  connectionProblem: string | null;
  ordersPolledAt: Date | null;
  ordersModifiedUntil: Date | null;
  lastPollError: string | null;
  lastPollErrorAt: Date | null;
  lastNotificationAt: Date | null;
  /** Quantity pushes queued or running. */
  pushesWaiting: number;
  /** Offers whose last write failed, newest first. */
  failedOffers: { productId: number; name: string; error: string; at: Date }[];
  /** Marketplace orders that came in for pieces already sold on the web shop. */
  oversoldOrders: { orderId: number; orderNumber: string; oversoldAt: Date }[];
  lastBulkRun: BulkRunView | null;
};

/** The reconciliation view: published offers whose quantity on the marketplace differs from the shop's stock. */
export const reconciliationInput = z.object({
  /** Continue after this product id (the page before's `nextAfterId`). */
  afterId: rowId.or(z.literal(0)).default(0),
  limit: z.number().int().min(1).max(200).default(100),
});
export type ReconciliationInput = z.input<typeof reconciliationInput>;
export type ReconciliationQuery = z.output<typeof reconciliationInput>;
/** One page: how many offers were asked about, those that differ, and where the next page starts (null: none). */
export type Reconciliation = { checked: number; mismatches: QuantityMismatch[]; nextAfterId: number | null };

export type QuantityMismatch = {
  productId: number;
  name: string;
  sku: string;
  shopQuantity: number;
  /** Null when the marketplace has no offer for the SKU any more. */
  marketplaceQuantity: number | null;
};
