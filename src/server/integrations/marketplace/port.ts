import type { Decimal } from "decimal.js";
import type { MarketplaceId } from "@/lib/enums";
import { AppError } from "@/server/errors";
import type { Probe } from "../port-status";

/**
 * Selling on the marketplace (eBay): inventory items and offers written from the shop's products, orders read back,
 * shipments and refunds reported. The live adapter speaks eBay's Inventory, Fulfillment and Notification APIs; the
 * sandbox marketplace keeps the same records in the database and has buyer pages of its own (/sandbox/ebay). Both
 * take and give the shapes below; eBay's own JSON stays inside the adapters. Money is a Decimal in euro.
 */

/**
 * eBay's item conditions that the shop's pieces can be in (the Inventory API's ConditionEnum; each is one of the
 * condition ids the Metadata API lists per category: `conditionIds` in ebay-taxonomy.ts).
 */
export const marketplaceConditions = [
  "NEW", "NEW_OTHER", "NEW_WITH_DEFECTS", "SELLER_REFURBISHED", "USED_EXCELLENT", "USED_VERY_GOOD", "USED_GOOD", "USED_ACCEPTABLE", "FOR_PARTS_OR_NOT_WORKING",
] as const;
export type MarketplaceCondition = (typeof marketplaceConditions)[number];

/** The marketplace site's category tree (the Taxonomy API's getDefaultCategoryTreeId): its id and current version. */
export type MarketplaceCategoryTree = { treeId: string; version: string };

/** One item specific of a category, as the Taxonomy API's getItemAspectsForCategory describes it. */
export type MarketplaceAspect = {
  /** The localized aspect name, as the item's `aspects` must spell it. */
  name: string;
  /** `aspectRequired`: a listing without it is refused at publish. */
  required: boolean;
  /** `aspectUsage`: RECOMMENDED (required ones too) or OPTIONAL. */
  usage: "RECOMMENDED" | "OPTIONAL";
  /** `aspectMode`: SELECTION_ONLY takes only one of `values`; FREE_TEXT takes those or anything else. */
  mode: "SELECTION_ONLY" | "FREE_TEXT";
  /** `aspectValues[].localizedValue`. */
  values: string[];
  /** `itemToAspectCardinality` MULTI. */
  multi: boolean;
  /** `aspectMaxLength`, when eBay gives one. */
  maxLength: number | null;
};

/** A category's item specifics, with the category's name in the marketplace's language. */
export type MarketplaceCategoryAspects = { categoryName: string | null; aspects: MarketplaceAspect[] };

/** The Metadata API's getItemConditionPolicies for one category: the conditions a listing in it may have. */
export type MarketplaceConditionPolicy = {
  categoryId: string;
  /** `itemConditionRequired`. */
  conditionRequired: boolean;
  /** The allowed conditions the port knows (condition ids it does not know are left out). */
  conditions: MarketplaceCondition[];
};

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
  /**
   * The currencies the order's amounts are in (total, delivery, lines), as eBay gives them: `["EUR"]` on the shop's
   * marketplaces; anything else is not imported as euro.
   */
  currencies: string[];
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

/** eBay refunds asynchronously: PENDING until the money went back. */
export type MarketplaceRefund = { refundId: string; status: "PENDING" | "REFUNDED" | "FAILED" };

/** A refund as the marketplace lists it on its order: for the whole order, or for one line. */
export type MarketplaceOrderRefund = MarketplaceRefund & {
  amount: Decimal;
  /** The line it pays back; null for a refund of the order. */
  lineItemId: string | null;
};

/**
 * A buyer's return or cancellation request as the marketplace lists it (eBay's Post-Order API: a ReturnSummary or a
 * CancelDetail, reduced to what the shop uses). A return is of one order line; a cancellation of the whole order.
 */
export type MarketplaceBuyerRequest = {
  kind: "RETURN" | "CANCELLATION";
  /** eBay's returnId or cancelId. */
  requestId: string;
  orderId: string;
  /** eBay's state as it says it (RETURN_REQUESTED, ITEM_SHIPPED, CLOSED, CANCEL_REQUESTED, CANCEL_CLOSED_WITH_REFUND, ...). */
  marketplaceState: string;
  /** What the request waits for: the seller's answer, the buyer or eBay (accepted and under way), or nothing more. */
  stage: "AWAITING_SELLER" | "ACCEPTED" | "DECLINED" | "CLOSED";
  /** eBay's reason code. */
  reason: string;
  buyerComment: string | null;
  /** The order lines it is for: the returned line and quantity; none for a cancellation, which is of the whole order. */
  lines: { lineItemId: string; quantity: number }[];
  /** What eBay estimates the buyer gets back; null when it does not say. */
  requestedRefund: Decimal | null;
  requestedAt: Date;
  respondBy: Date | null;
};

/** The seller's answer to a buyer's request. */
export type MarketplaceRequestDecision = { kind: "RETURN" | "CANCELLATION"; requestId: string; accept: boolean; comment: string | null };

/**
 * How the caller bounds the marketplace calls a notification can cost (eBay: a public key lookup per key id not yet
 * known), across every instance: asked before each such call, it says whether one more may be made now.
 */
export type NotificationReadOptions = { mayLookUpKey?: () => Promise<boolean> };

/**
 * What the marketplace told the shop's endpoint: that an order was made or changed, or that a buyer's eBay account was
 * deleted (MARKETPLACE_ACCOUNT_DELETION: their personal data must go).
 */
export type MarketplaceNotice =
  | { kind: "order"; orderId: string }
  | { kind: "accountDeletion"; username: string; userId: string }
  | { kind: "other"; topic: string };

/**
 * What the marketplace charged the seller for an order (eBay's Finances API transactions of the order): the final
 * value fee and the others, in euro, by eBay's fee type, and their total.
 */
export type MarketplaceOrderFees = { total: Decimal; byType: Record<string, Decimal> };

/** Whether the shop may talk to the marketplace, and until when its access token holds. */
export type MarketplaceConnection = {
  connected: boolean;
  tokenValidUntil: Date | null;
  /** Why not connected, in words staff can act on. */
  problem: string | null;
};

export interface MarketplacePort {
  readonly kind: "live" | "sandbox";
  /** The owner's Test connection: one harmless call as the seller (eBay: the account's selling privileges). */
  probe: Probe;
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
   * The fees the marketplace took for an order (Finances API `getTransactions` filtered by the order, signed); null
   * while it lists no sale transaction for it yet (eBay books one some time after the payment).
   */
  getOrderFees(orderId: string): Promise<MarketplaceOrderFees | null>;
  /**
   * Buyers' return and cancellation requests created in the window (eBay: GET /post-order/v2/return/search and
   * /cancellation/search, all pages), each as it stands now.
   */
  getBuyerRequests(query: { createdFrom: Date; createdTo: Date }): Promise<MarketplaceBuyerRequest[]>;
  /**
   * Answers a buyer's request: a return approved or declined (POST /post-order/v2/return/{returnId}/decide), a
   * cancellation approved or rejected (POST /post-order/v2/cancellation/{cancelId}/approve or /reject). Refused (a
   * MarketplaceError) when the request no longer waits for the seller.
   */
  decideBuyerRequest(decision: MarketplaceRequestDecision): Promise<void>;
  /**
   * Checks that a notification came from the marketplace (its signature header over the body) and reads it;
   * null when it is not genuine.
   */
  readNotification(headers: Headers, body: string, options?: NotificationReadOptions): Promise<MarketplaceNotice | null>;
  /** The answer to the marketplace's check of the notification endpoint (`GET ?challenge_code=`). */
  notificationChallengeResponse(challengeCode: string, endpointUrl: string): string;
  connection(): Promise<MarketplaceConnection>;
  /** The default category tree of a marketplace site and its version; a new version can change any category's rules. */
  getCategoryTree(marketplaceId: MarketplaceId): Promise<MarketplaceCategoryTree>;
  /** A leaf category's item specifics in a category tree (Taxonomy API), with the category's name. */
  getCategoryAspects(treeId: string, categoryId: string): Promise<MarketplaceCategoryAspects>;
  /** The allowed conditions of up to 50 categories of a marketplace site (Metadata API); a category not listed has no policy. */
  getConditionPolicies(marketplaceId: MarketplaceId, categoryIds: readonly string[]): Promise<MarketplaceConditionPolicy[]>;
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
