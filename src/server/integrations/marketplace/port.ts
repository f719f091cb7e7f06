import type { Decimal } from "decimal.js";
import type { MarketplaceId } from "@/lib/enums";
import { AppError } from "@/server/errors";

/**
 * Selling on the marketplace (eBay): inventory items and offers written from the shop's products, orders read back,
 * shipments and refunds reported. The live adapter speaks eBay's Inventory, Fulfillment and Notification APIs; the
 * sandbox marketplace keeps the same records in the database and has buyer pages of its own (/sandbox/ebay). Both
 * take and give the shapes below; eBay's own JSON stays inside the adapters. Money is a Decimal in euro.
 */

/** eBay's item conditions that the shop's pieces can be in. */
export type MarketplaceCondition = "NEW" | "NEW_OTHER" | "USED_EXCELLENT" | "USED_VERY_GOOD" | "USED_GOOD" | "USED_ACCEPTABLE" | "FOR_PARTS_OR_NOT_WORKING";

/**
 * An inventory item: what the piece is. Always the whole record: eBay replaces what is stored with what is sent,
 * so a field left out is a field deleted.
 */
export type MarketplaceItem = {
  sku: string;
  marketplaceId: MarketplaceId;
  condition: MarketplaceCondition;
  /** What the marketplace shows for the condition in words (the product's condition field). */
  conditionDescription: string | null;
  title: string;
  /** HTML. */
  description: string;
  /** Item specifics: `{ Brand: ["Omega"], Movement: ["Mechanical (Manual)"] }`. */
  aspects: Record<string, string[]>;
  /** Public https addresses, the first is the main picture; at most 24. */
  imageUrls: string[];
  quantity: number;
};

/** An offer: the item for sale on one marketplace site, at a price, in categories. Also always the whole record. */
export type MarketplaceOfferRecord = {
  sku: string;
  marketplaceId: MarketplaceId;
  price: Decimal;
  quantity: number;
  /** eBay's leaf category id. */
  categoryId: string;
  /** The seller's eBay shop categories (category, then manufacturer), by name as eBay's storeCategoryNames. */
  storeCategoryNames: string[];
  /** HTML; eBay shows it on the listing instead of the item's description. */
  listingDescription: string;
};

/** One entry of a bulk write's answer: each item succeeds or fails on its own. */
export type MarketplaceItemResult = {
  sku: string;
  ok: boolean;
  /** The HTTP-like status eBay gives per item (200, 201, 400, ...). */
  statusCode: number;
  /** The marketplace's words when it failed. */
  error: string | null;
};

/** The marketplace's own view of an offer, as read back. */
export type MarketplaceOfferState = {
  offerId: string;
  sku: string;
  marketplaceId: MarketplaceId;
  status: "PUBLISHED" | "UNPUBLISHED";
  listingId: string | null;
  /** eBay ended the listing itself (its listingStatus ENDED or EBAY_ENDED) while the offer still reads PUBLISHED. */
  listingEnded: boolean;
  /** What a buyer can buy now: the smaller of the offer's and the item's quantity. */
  quantity: number;
  price: Decimal;
};

/** A quantity (and, in a bulk update, a price) for a published offer. */
export type PriceQuantityUpdate = {
  sku: string;
  offerId: string;
  quantity: number;
  /** Left out to keep the price as it is. */
  price?: Decimal;
};

export type MarketplaceOrderLine = {
  lineItemId: string;
  /** The shop's SKU; null for a line of a listing the shop did not make. */
  sku: string | null;
  title: string;
  quantity: number;
  /** What the buyer paid for the whole line, before delivery. */
  lineItemCost: Decimal;
};

export type MarketplaceShipTo = {
  fullName: string;
  addressLine1: string;
  addressLine2: string | null;
  postalCode: string;
  city: string;
  stateOrProvince: string | null;
  countryCode: string;
  phone: string | null;
  email: string | null;
};

/** An order as the marketplace reports it (eBay's Fulfillment API Order, reduced to what the shop uses). */
export type MarketplaceOrder = {
  orderId: string;
  createdAt: Date;
  lastModifiedAt: Date;
  /** `NOT_STARTED`, `IN_PROGRESS` or `FULFILLED`. */
  fulfillmentStatus: "NOT_STARTED" | "IN_PROGRESS" | "FULFILLED";
  /** `PAID` once the buyer paid; the marketplace does not report orders before checkout. */
  paymentStatus: string;
  /** The buyer or eBay cancelled the order. */
  cancelled: boolean;
  buyerUsername: string;
  total: Decimal;
  deliveryCost: Decimal;
  lines: MarketplaceOrderLine[];
  shipTo: MarketplaceShipTo;
};

/** Which orders to fetch: those modified in a window (paged through by the adapter), or some by id. */
export type MarketplaceOrderQuery = { modifiedFrom: Date; modifiedTo: Date } | { orderIds: string[] };

export type MarketplaceShipment = {
  orderId: string;
  lines: { lineItemId: string; quantity: number }[];
  /** eBay's carrier code: `PostNL`, `UPS`. */
  carrierCode: string;
  /** Letters and digits only; the adapter strips anything else. */
  trackingNumber: string;
  shippedAt: Date;
};

export type MarketplaceRefundRequest = {
  orderId: string;
  amount: Decimal;
  /** eBay's reason codes: BUYER_CANCEL, BUYER_RETURN, ITEM_NOT_RECEIVED, SELLER_WRONG_ITEM, SELLER_CANCEL, OTHER. */
  reason: "BUYER_CANCEL" | "BUYER_RETURN" | "ITEM_NOT_RECEIVED" | "SELLER_WRONG_ITEM" | "SELLER_CANCEL" | "OTHER";
  comment: string | null;
  /** The lines refunded, when the refund is for pieces; the whole order otherwise. */
  lines: { lineItemId: string; amount: Decimal }[] | null;
};

export type MarketplaceRefund = {
  refundId: string;
  /** eBay refunds asynchronously: PENDING until the money went back. */
  status: "PENDING" | "REFUNDED" | "FAILED";
};

/** A refund as the marketplace lists it on its order: for the whole order, or for one line. */
export type MarketplaceOrderRefund = MarketplaceRefund & {
  amount: Decimal;
  /** The line it pays back; null for a refund of the order. */
  lineItemId: string | null;
};

/**
 * How the caller bounds the marketplace calls a notification can cost (eBay: a public key lookup per key id not yet
 * known), across every instance: asked before each such call, it says whether one more may be made now.
 */
export type NotificationReadOptions = { mayLookUpKey?: () => Promise<boolean> };

/** What the marketplace told the shop's endpoint: for now only that an order was made or changed. */
export type MarketplaceNotice = { kind: "order"; orderId: string } | { kind: "other"; topic: string };

/** Whether the shop may talk to the marketplace, and until when its access token holds. */
export type MarketplaceConnection = {
  connected: boolean;
  tokenValidUntil: Date | null;
  /** Why not connected, in words staff can act on. */
  problem: string | null;
};

export interface MarketplacePort {
  readonly kind: "live" | "sandbox";
  /** Creates or replaces inventory items (25 per call to the marketplace); one result per item, in order. */
  putItems(items: readonly MarketplaceItem[]): Promise<MarketplaceItemResult[]>;
  /** The offer of a SKU, or null when it has none. */
  getOffer(sku: string): Promise<MarketplaceOfferState | null>;
  /** Creates the offer for a SKU that has none, unpublished; returns its id. */
  createOffer(offer: MarketplaceOfferRecord): Promise<{ offerId: string }>;
  /** Replaces an offer; revises the live listing when it is published. */
  updateOffer(offerId: string, offer: MarketplaceOfferRecord): Promise<void>;
  /** Lists an offer; a withdrawn offer gets a new listing id. */
  publishOffer(offerId: string): Promise<{ listingId: string }>;
  /** Ends the listing and keeps the offer. */
  withdrawOffer(offerId: string): Promise<void>;
  /** Sets quantity (and price) of published offers, 25 per call; one result per update, in order. */
  updatePriceQuantity(updates: readonly PriceQuantityUpdate[]): Promise<MarketplaceItemResult[]>;
  /** Every order the query matches, all pages. */
  getOrders(query: MarketplaceOrderQuery): Promise<MarketplaceOrder[]>;
  /** Reports a parcel with its tracking number; the marketplace marks the lines shipped. */
  shipOrder(shipment: MarketplaceShipment): Promise<void>;
  /** Pays money back to the buyer through the marketplace. */
  refundOrder(refund: MarketplaceRefundRequest): Promise<MarketplaceRefund>;
  /**
   * Every refund of an order as it stands now (eBay pays refunds out asynchronously): GET
   * /sell/fulfillment/v1/order/{orderId}, where refunds of the order are under paymentSummary.refunds[] and refunds
   * of lines under lineItems[].refunds[] instead. Throws a MarketplaceError with status 404 for an unknown order.
   */
  getRefunds(orderId: string): Promise<MarketplaceOrderRefund[]>;
  /**
   * Checks that a notification came from the marketplace (its signature header over the body) and reads it;
   * null when it is not genuine.
   */
  readNotification(headers: Headers, body: string, options?: NotificationReadOptions): Promise<MarketplaceNotice | null>;
  /** The answer to the marketplace's check of the notification endpoint (`GET ?challenge_code=`). */
  notificationChallengeResponse(challengeCode: string, endpointUrl: string): string;
  connection(): Promise<MarketplaceConnection>;
}

/** One of eBay's error entries, as its APIs return them in `errors[]`. */
export type MarketplaceErrorDetail = {
  errorId: number;
  domain: string;
  category: string;
  message: string;
  longMessage?: string;
  parameters?: { name: string; value: string }[];
};

/**
 * The marketplace refused a request or could not be reached. The message names the call and what eBay said;
 * `status` is null when there was no answer to read. `retryable` says whether trying again later may help (no
 * answer, 429, 5xx) or the request itself is wrong.
 */
export class MarketplaceError extends AppError {
  constructor(
    readonly call: string,
    readonly status: number | null,
    readonly details: MarketplaceErrorDetail[],
    message: string,
    options?: { cause?: unknown },
  ) {
    super(status === 404 ? "NOT_FOUND" : "PRECONDITION_FAILED", message, options);
    this.name = "MarketplaceError";
  }

  get retryable(): boolean {
    return this.status === null || this.status === 429 || this.status >= 500;
  }
}
