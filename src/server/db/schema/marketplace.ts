import { sql } from "drizzle-orm";
import { check, date, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { user } from "./auth";
import { product } from "./catalogue";
import { money, timestamps } from "./columns";
import { bulkRunStatus, marketplaceEndReason, marketplaceId, marketplaceOfferStatus } from "./enums";
import { order } from "./orders";

/**
 * A product's offer on the marketplace (eBay): one per product, on one marketplace site, under the SKU the shop gave
 * it. What was last pushed is kept so a push that would change nothing is skipped (a listing may be revised only 250
 * times a day), and the last error so staff see why a product is not where they expect it.
 */
export const marketplaceOffer = pgTable(
  "marketplace_offer",
  {
    productId: integer()
      .primaryKey()
      .references(() => product.id, { onDelete: "restrict" }),
    sku: text().notNull(),
    marketplaceId: marketplaceId().notNull(),
    /** The marketplace's id of the offer, once it was created there. */
    offerId: text(),
    /** The listing's id while published; publishing again after a withdraw gives a new one. */
    listingId: text(),
    status: marketplaceOfferStatus().notNull().default("UNPUBLISHED"),
    /** Why the listing ended, while WITHDRAWN: an OUT_OF_STOCK one is relisted when stock returns. */
    endReason: marketplaceEndReason(),
    /** A relist in flight since then: a second push seeing a recent claim leaves the offer to it (one listing, not two). */
    relistClaimedAt: timestamp({ withTimezone: true, mode: "date" }),
    /** The quantity and price the marketplace was last told, and when. */
    pushedQuantity: integer(),
    pushedPrice: money(),
    lastPushedAt: timestamp({ withTimezone: true, mode: "date" }),
    /** The marketplace's words for the last failed write, cleared by the next one that succeeds. */
    lastError: text(),
    lastErrorAt: timestamp({ withTimezone: true, mode: "date" }),
    /** Revisions of the live listing on `revisionDay` (the marketplace's day, UTC), against its 250-a-day limit. */
    revisionDay: date({ mode: "string" }),
    revisionsToday: integer().notNull().default(0),
    /** The bulk update run that last pushed this offer: a run continued after a restart skips what it already did. */
    lastBulkRunId: integer(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("marketplace_offer_sku_unique").on(t.sku),
    uniqueIndex("marketplace_offer_offer_id_unique").on(t.offerId),
    index("marketplace_offer_status_idx").on(t.status, t.productId),
    index("marketplace_offer_error_idx").on(t.lastErrorAt),
  ],
);

/**
 * Where importing marketplace orders stands: one row per marketplace account. `ordersModifiedUntil` is the
 * watermark of the last complete poll (orders modified up to then are in); the next poll starts a little before it.
 */
export const marketplaceSync = pgTable("marketplace_sync", {
  id: text().primaryKey(),
  ordersPolledAt: timestamp({ withTimezone: true, mode: "date" }),
  ordersModifiedUntil: timestamp({ withTimezone: true, mode: "date" }),
  lastPollError: text(),
  lastPollErrorAt: timestamp({ withTimezone: true, mode: "date" }),
  lastNotificationAt: timestamp({ withTimezone: true, mode: "date" }),
  ...timestamps,
});

/**
 * A bulk update of every published offer (price, quantity, description). The products are walked in id order; the
 * last one done is also in BULK_UPDATE_EBAY_OFFERS_CURRENT_ID (SPEC section 3), which every instance reads for the
 * top bar. `inFlightFromId`..`inFlightToId` is the batch sent but not yet recorded as done: after a crash the run
 * asks the marketplace what that batch holds instead of sending it again.
 */
export const marketplaceBulkRun = pgTable(
  "marketplace_bulk_run",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    status: bulkRunStatus().notNull().default("RUNNING"),
    /** What the run rewrites: `{ price: boolean, quantity: boolean, description: boolean }`. */
    fields: jsonb().$type<{ price: boolean; quantity: boolean; description: boolean }>().notNull(),
    totalCount: integer().notNull(),
    doneCount: integer().notNull().default(0),
    failedCount: integer().notNull().default(0),
    lastProductId: integer().notNull().default(0),
    inFlightFromId: integer(),
    inFlightToId: integer(),
    /** The queue's id of the job whose try claimed the batch in flight (a try handed back takes its claim up at once). */
    inFlightJobId: text(),
    lastError: text(),
    startedBy: text().references(() => user.id, { onDelete: "set null" }),
    startedAt: timestamp({ withTimezone: true, mode: "date" }).notNull().defaultNow(),
    finishedAt: timestamp({ withTimezone: true, mode: "date" }),
    ...timestamps,
  },
  (t) => [
    // At most one run at a time.
    uniqueIndex("marketplace_bulk_run_one_running").on(t.status).where(sql`${t.status} = 'RUNNING'`),
  ],
);

/** One line of a buyer's request: the order line and how many of its pieces. */
export type MarketplaceRequestLine = { orderItemId: number; lineItemId: string; quantity: number };

/**
 * A buyer's return or cancellation request on the marketplace (eBay's Post-Order API), imported once per eBay id
 * against the imported order. `state` is the shop's view (REQUESTED until staff or eBay decide, then ACCEPTED or
 * DECLINED, CLOSED once eBay closed it); `marketplaceState` is eBay's own word as last read. A return's pieces are
 * booked back into stock once, when staff mark it received (`receivedAt`); its refund goes through the refunds
 * (`refundIds`).
 */
export const marketplaceRequest = pgTable(
  "marketplace_request",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    kind: text().$type<"RETURN" | "CANCELLATION">().notNull(),
    /** eBay's returnId or cancelId. */
    marketplaceRequestId: text().notNull(),
    orderId: integer()
      .notNull()
      .references(() => order.id, { onDelete: "restrict" }),
    marketplaceOrderId: text().notNull(),
    state: text().$type<"REQUESTED" | "ACCEPTED" | "DECLINED" | "CLOSED">().notNull().default("REQUESTED"),
    marketplaceState: text().notNull(),
    /** eBay's reason code (NO_LONGER_NEED_ITEM, NOT_AS_DESCRIBED, BUYER_CANCEL_ORDER, ...). */
    reason: text().notNull(),
    buyerComment: text(),
    lines: jsonb().$type<MarketplaceRequestLine[]>().notNull(),
    /** What eBay estimates the buyer gets back, in euro; null when it says nothing. */
    requestedRefund: money(),
    requestedAt: timestamp({ withTimezone: true, mode: "date" }).notNull(),
    /** Until when eBay waits for the seller's answer. */
    respondBy: timestamp({ withTimezone: true, mode: "date" }),
    decidedAt: timestamp({ withTimezone: true, mode: "date" }),
    decidedBy: text().references(() => user.id, { onDelete: "set null" }),
    receivedAt: timestamp({ withTimezone: true, mode: "date" }),
    receivedBy: text().references(() => user.id, { onDelete: "set null" }),
    /** When staff started its refund: a second refund waits for the first to be recorded (or to have died). */
    refundStartedAt: timestamp({ withTimezone: true, mode: "date" }),
    /** The refunds given for it (refund ids), once staff refunded it through eBay. */
    refundIds: jsonb().$type<number[]>().notNull().default([]),
    closedAt: timestamp({ withTimezone: true, mode: "date" }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("marketplace_request_unique").on(t.kind, t.marketplaceRequestId),
    index("marketplace_request_order_idx").on(t.orderId),
    check("marketplace_request_kind", sql`${t.kind} in ('RETURN', 'CANCELLATION')`),
    check("marketplace_request_state", sql`${t.state} in ('REQUESTED', 'ACCEPTED', 'DECLINED', 'CLOSED')`),
  ],
);

/**
 * The sandbox marketplace, which stands in for eBay in the embedded default: inventory items, offers and listings,
 * and the orders its buyer pages make, kept in the database (not in memory) so every app instance sees the same
 * marketplace. Records are stored in eBay's own shapes (jsonb), as eBay would hand them back.
 */
export const sandboxMarketplaceItem = pgTable("sandbox_marketplace_item", {
  sku: text().primaryKey(),
  /** The inventory item as last written (eBay's InventoryItem shape). */
  record: jsonb().$type<Record<string, unknown>>().notNull(),
  /** The SKU's quantity; a sale takes from it. */
  quantity: integer().notNull().default(0),
  ...timestamps,
});

export const sandboxMarketplaceOffer = pgTable(
  "sandbox_marketplace_offer",
  {
    /** `sbo_` and random letters. */
    offerId: text().primaryKey(),
    sku: text().notNull(),
    marketplaceId: marketplaceId().notNull(),
    /** The offer as last written (eBay's EbayOfferDetailsWithKeys shape). */
    record: jsonb().$type<Record<string, unknown>>().notNull(),
    /** The offer's own quantity; the listing shows the smaller of this and the item's. */
    availableQuantity: integer().notNull().default(0),
    price: money().notNull(),
    status: marketplaceOfferStatus().notNull().default("UNPUBLISHED"),
    listingId: text(),
    /** Writes to this offer or its item on `revisionDay`: the sandbox refuses the 251st, as eBay does. */
    revisionDay: date({ mode: "string" }),
    revisionsToday: integer().notNull().default(0),
    /** Every write ever made to the offer, so tests can count what a run sent. */
    writeCount: integer().notNull().default(0),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("sandbox_marketplace_offer_sku_unique").on(t.sku),
    uniqueIndex("sandbox_marketplace_offer_listing_unique").on(t.listingId),
    check("sandbox_marketplace_offer_quantity", sql`${t.availableQuantity} >= 0`),
  ],
);

export const sandboxMarketplaceOrder = pgTable(
  "sandbox_marketplace_order",
  {
    /** eBay's order id shape: `12-34567-89012`. */
    orderId: text().primaryKey(),
    /** The order in eBay's Order shape, as getOrders returns it. */
    record: jsonb().$type<Record<string, unknown>>().notNull(),
    lastModifiedAt: timestamp({ withTimezone: true, mode: "date" }).notNull().defaultNow(),
    ...timestamps,
  },
  (t) => [index("sandbox_marketplace_order_modified_idx").on(t.lastModifiedAt)],
);

/** Buyers' returns and cancellations on the sandbox marketplace, in eBay's Post-Order shapes (ReturnSummary, CancelDetail). */
export const sandboxMarketplaceRequest = pgTable(
  "sandbox_marketplace_request",
  {
    /** eBay's returnId or cancelId: digits. */
    requestId: text().primaryKey(),
    kind: text().$type<"RETURN" | "CANCELLATION">().notNull(),
    orderId: text().notNull(),
    record: jsonb().$type<Record<string, unknown>>().notNull(),
    ...timestamps,
  },
  (t) => [index("sandbox_marketplace_request_created_idx").on(t.createdAt), index("sandbox_marketplace_request_order_idx").on(t.orderId)],
);
