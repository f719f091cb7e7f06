import "server-only";
import { createHash, createHmac, randomInt, timingSafeEqual } from "node:crypto";
import { Decimal } from "decimal.js";
import type { MarketplaceId } from "@/lib/enums";
import { currenciesOf, offerDetails } from "./ebay-records";
import {
  MarketplaceError,
  type MarketplaceCondition,
  type MarketplaceItem,
  type MarketplaceNotice,
  type MarketplaceOfferRecord,
  type MarketplaceOrder,
} from "./port";

/**
 * The sandbox marketplace's records in eBay's own JSON shapes (Inventory API InventoryItem and Offer, Fulfillment
 * API Order), its ids in eBay's formats, its refusals in eBay's error format, and the signature of the notifications
 * it sends to the shop. Shared by the seller's side (sandbox.ts, the port) and the buyer's side (sandbox-store.ts).
 */

export type Amount = { value: string; currency: string };

/** eBay's InventoryItem, as `GET /inventory_item/{sku}` returns it. */
export type InventoryItemRecord = {
  sku: string;
  locale: string;
  condition: MarketplaceCondition;
  conditionDescription?: string;
  product: { title: string; description: string; aspects: Record<string, string[]>; imageUrls: string[] };
  availability: { shipToLocationAvailability: { quantity: number } };
};

/** eBay's offer (EbayOfferDetailsWithKeys plus what `GET /offer/{offerId}` adds). */
export type OfferRecord = {
  offerId: string;
  sku: string;
  marketplaceId: MarketplaceId;
  format: "FIXED_PRICE";
  availableQuantity: number;
  categoryId: string;
  listingDescription: string;
  storeCategoryNames: string[];
  pricingSummary: { price: Amount };
  status: "PUBLISHED" | "UNPUBLISHED";
  /**
   * Only while published, as eBay gives it. A listing eBay ended itself (ENDED, or EBAY_ENDED by its customer service)
   * is still shown on the published offer; only a withdraw or a publish changes that.
   */
  listing?: { listingId: string; listingStatus: "ACTIVE" | "ENDED" | "EBAY_ENDED"; soldQuantity: number };
};

export type ShipToRecord = {
  fullName: string;
  contactAddress: { addressLine1: string; addressLine2?: string; city: string; postalCode: string; countryCode: string; stateOrProvince?: string };
  primaryPhone?: { phoneNumber: string };
  email?: string;
};

export type OrderLineRecord = {
  lineItemId: string;
  legacyItemId: string;
  sku?: string;
  title: string;
  quantity: number;
  lineItemCost: Amount;
  total: Amount;
  lineItemFulfillmentStatus: "NOT_STARTED" | "IN_PROGRESS" | "FULFILLED";
  refunds?: { refundId: string; amount: Amount; refundDate: string }[];
};

/**
 * eBay's ShippingFulfillment. eBay keeps these as resources of their own, linked from the order's `fulfillmentHrefs`;
 * the sandbox has no such resource and keeps them in the order record beside the links.
 */
export type ShippingFulfillmentRecord = {
  fulfillmentId: string;
  lineItems: { lineItemId: string; quantity: number }[];
  shippingCarrierCode: string;
  shipmentTrackingNumber: string;
  shippedDate: string;
};

/** eBay's Order (Fulfillment API), with the fields the shop reads and those a buyer's purchase fills in. */
export type OrderRecord = {
  orderId: string;
  creationDate: string;
  lastModifiedDate: string;
  orderFulfillmentStatus: "NOT_STARTED" | "IN_PROGRESS" | "FULFILLED";
  orderPaymentStatus: "PAID" | "PARTIALLY_REFUNDED" | "FULLY_REFUNDED";
  buyer: { username: string; buyerRegistrationAddress: { fullName: string; email: string } };
  pricingSummary: { priceSubtotal: Amount; deliveryCost: Amount; total: Amount };
  cancelStatus: { cancelState: "NONE_REQUESTED" | "CANCEL_REQUESTED" | "CANCELED"; cancelRequests: unknown[] };
  paymentSummary: { totalDueSeller: Amount; refunds: { refundId: string; refundStatus: "REFUNDED"; amount: Amount; refundDate: string; refundReferenceId?: string }[] };
  fulfillmentStartInstructions: { fulfillmentInstructionsType: "SHIP_TO"; shippingStep: { shippingCarrierCode?: string; shipTo: ShipToRecord } }[];
  fulfillmentHrefs: string[];
  shippingFulfillments: ShippingFulfillmentRecord[];
  lineItems: OrderLineRecord[];
};

// The records are written only by this module's callers, in these shapes; reading them back needs no second check.
export const asItemRecord = (record: Record<string, unknown>) => record as unknown as InventoryItemRecord;
export const asOfferRecord = (record: Record<string, unknown>) => record as unknown as OfferRecord;
export const asOrderRecord = (record: Record<string, unknown>) => record as unknown as OrderRecord;
export const storable = (record: InventoryItemRecord | OfferRecord | OrderRecord) => record as unknown as Record<string, unknown>;

export function offerRecord(offerId: string, offer: MarketplaceOfferRecord, state: Pick<OfferRecord, "status" | "listing">): OfferRecord {
  return { offerId, ...offerDetails(offer), status: state.status, ...(state.listing ? { listing: state.listing } : {}) };
}

/** The item record with a new quantity (a sale, or a quantity update), everything else as it was. */
export function withItemQuantity(record: InventoryItemRecord, quantity: number): InventoryItemRecord {
  return { ...record, availability: { shipToLocationAvailability: { quantity } } };
}

/** The order as the port hands it to the shop. */
export function marketplaceOrder(record: OrderRecord): MarketplaceOrder {
  const shipTo = record.fulfillmentStartInstructions[0]?.shippingStep.shipTo;
  if (!shipTo) throw new Error(`Sandbox marketplace order ${record.orderId} has no address`);
  return {
    orderId: record.orderId,
    createdAt: new Date(record.creationDate),
    lastModifiedAt: new Date(record.lastModifiedDate),
    fulfillmentStatus: record.orderFulfillmentStatus,
    paymentStatus: record.orderPaymentStatus,
    cancelled: record.cancelStatus.cancelState === "CANCELED",
    buyerUsername: record.buyer.username,
    currencies: currenciesOf([record.pricingSummary.total, record.pricingSummary.deliveryCost, ...record.lineItems.map((line) => line.lineItemCost)]),
    total: new Decimal(record.pricingSummary.total.value),
    deliveryCost: new Decimal(record.pricingSummary.deliveryCost.value),
    lines: record.lineItems.map((line) => ({
      lineItemId: line.lineItemId,
      sku: line.sku ?? null,
      title: line.title,
      quantity: line.quantity,
      lineItemCost: new Decimal(line.lineItemCost.value),
    })),
    shipTo: {
      fullName: shipTo.fullName,
      addressLine1: shipTo.contactAddress.addressLine1,
      addressLine2: shipTo.contactAddress.addressLine2 ?? null,
      postalCode: shipTo.contactAddress.postalCode,
      city: shipTo.contactAddress.city,
      stateOrProvince: shipTo.contactAddress.stateOrProvince ?? null,
      countryCode: shipTo.contactAddress.countryCode,
      phone: shipTo.primaryPhone?.phoneNumber ?? null,
      email: shipTo.email ?? null,
    },
  };
}

const digits = (count: number) => Array.from({ length: count }, () => randomInt(10)).join("");
const letters = (count: number) => Array.from({ length: count }, () => "abcdefghijklmnopqrstuvwxyz"[randomInt(26)]).join("");

/** `sbo_` and random letters. */
export const newOfferId = () => `sbo_${letters(16)}`;
/** eBay's listing (item) ids are 12 digits. */
export const newListingId = () => `${1 + randomInt(9)}${digits(11)}`;
/** eBay's order id shape: `12-34567-89012`. */
export const newOrderId = () => `${digits(2)}-${digits(5)}-${digits(5)}`;
export const newLineItemId = () => `${1 + randomInt(9)}${digits(13)}`;
export const newRefundId = () => `${5 + randomInt(5)}${digits(9)}`;
export const newFulfillmentId = () => `${1 + randomInt(9)}${digits(15)}`;

/** eBay's revision limit: a listing can be revised 250 times per calendar day (eBay's day; the sandbox uses UTC). */
export const revisionsPerDay = 250;

export const utcDay = (now: Date) => now.toISOString().slice(0, 10);

/** The offer's revision count after one more revision today, or null when that would be past the day's limit. */
export function nextRevision(offer: { revisionDay: string | null; revisionsToday: number }, now: Date): { revisionDay: string; revisionsToday: number } | null {
  const today = utcDay(now);
  const revisionsToday = (offer.revisionDay === today ? offer.revisionsToday : 0) + 1;
  return revisionsToday > revisionsPerDay ? null : { revisionDay: today, revisionsToday };
}

/**
 * A refusal in eBay's error format. The error ids are in the ranges eBay's Inventory (25xxx) and Fulfillment (32xxx)
 * APIs use; eBay does not document one id per refusal, so the shop reads the message and status, never the id.
 */
export type Refusal = { status: number; errorId: number; message: string; parameters?: { name: string; value: string }[] };

export const refusals = {
  offerNotFound: (offerId: string): Refusal => ({ status: 404, errorId: 25713, message: `This Offer is not available: ${offerId}.`, parameters: [{ name: "offerId", value: offerId }] }),
  itemNotFound: (sku: string): Refusal => ({ status: 400, errorId: 25702, message: `The SKU ${sku} is not available in the system.`, parameters: [{ name: "sku", value: sku }] }),
  offerExists: (offerId: string): Refusal => ({ status: 400, errorId: 25002, message: "Offer entity already exists.", parameters: [{ name: "offerId", value: offerId }] }),
  otherMarketplace: (sku: string, marketplaceId: string): Refusal => ({
    status: 400,
    errorId: 25002,
    message: `The same SKU value can not be offered across multiple eBay marketplaces: ${sku} is already offered on ${marketplaceId}.`,
  }),
  /** Withdrawing an offer whose listing eBay had already ended: eBay answers "This Offer is not available". */
  listingEnded: (offerId: string, listingId: string): Refusal => ({
    status: 400,
    errorId: 25713,
    message: `This Offer is not available: its listing ${listingId} has already ended.`,
    parameters: [{ name: "offerId", value: offerId }],
  }),
  notPublished: (offerId: string): Refusal => ({ status: 400, errorId: 25713, message: `The offer ${offerId} is not published; only a published offer's price and quantity can be updated.` }),
  revisionLimit: (): Refusal => ({
    status: 400,
    errorId: 25031,
    message: `This listing has been revised the maximum number of times today (${revisionsPerDay}); it can be revised again tomorrow.`,
  }),
  skuMismatch: (offerId: string, sku: string): Refusal => ({ status: 400, errorId: 25709, message: `The offer ${offerId} is not for SKU ${sku}; an offer's SKU cannot be changed.` }),
  invalid: (field: string, message: string): Refusal => ({ status: 400, errorId: 25709, message: `Invalid value for ${field}. ${message}`, parameters: [{ name: "field", value: field }] }),
  orderNotFound: (orderId: string): Refusal => ({ status: 404, errorId: 32100, message: `Invalid order ID: ${orderId}.` }),
  lineNotInOrder: (lineItemId: string): Refusal => ({ status: 400, errorId: 32100, message: `The line item ${lineItemId} is not part of the order.` }),
  refundTooLarge: (left: Decimal): Refusal => ({ status: 400, errorId: 34802, message: `The refund amount exceeds what is left to refund (EUR ${left.toFixed(2)}).` }),
};

/** A refusal as the port reports it. */
export function marketplaceError(call: string, refusal: Refusal): MarketplaceError {
  const category = refusal.status >= 500 ? "APPLICATION" : "REQUEST";
  return new MarketplaceError(
    call,
    refusal.status,
    [{ errorId: refusal.errorId, domain: "API_INVENTORY", category, message: refusal.message, ...(refusal.parameters ? { parameters: refusal.parameters } : {}) }],
    `The sandbox marketplace refused ${call}: ${refusal.message}`,
  );
}

/** Checks an inventory item as eBay does before storing it; the refusal, or null when it may be stored. */
export function itemProblem(item: MarketplaceItem): Refusal | null {
  if (!/^[A-Za-z0-9_-]{1,50}$/.test(item.sku)) return refusals.invalid("sku", "A SKU has 1 to 50 letters, digits, hyphens or underscores.");
  if (!item.title.trim() || item.title.length > 80) return refusals.invalid("product.title", "A title has 1 to 80 characters.");
  if (item.imageUrls.length > 24) return refusals.invalid("product.imageUrls", "At most 24 pictures.");
  if (!Number.isInteger(item.quantity) || item.quantity < 0) return refusals.invalid("availability.shipToLocationAvailability.quantity", "The quantity is a whole number, 0 or more.");
  return null;
}

export function offerProblem(offer: MarketplaceOfferRecord): Refusal | null {
  if (!Number.isInteger(offer.quantity) || offer.quantity < 0) return refusals.invalid("availableQuantity", "The quantity is a whole number, 0 or more.");
  if (!offer.price.isPositive() || offer.price.isZero() || offer.price.decimalPlaces() > 2) return refusals.invalid("pricingSummary.price", "The price is more than 0, in cents.");
  if (!/^\d+$/.test(offer.categoryId)) return refusals.invalid("categoryId", "A category id is eBay's number of a leaf category.");
  return null;
}

/** What the sandbox sends the shop when a buyer bought something: eBay's notification envelope. */
export function orderNotificationBody(orderId: string, eventDate: Date, publishDate: Date): string {
  return JSON.stringify({
    metadata: { topic: "ORDER_CONFIRMATION", schemaVersion: "1.0", deprecated: false },
    notification: {
      notificationId: crypto.randomUUID(),
      eventDate: eventDate.toISOString(),
      publishDate: publishDate.toISOString(),
      publishAttemptCount: 1,
      data: { orderId },
    },
  });
}

const hmac = (secret: string, body: string) => createHmac("sha256", secret).update(body, "utf8").digest();

/**
 * The `X-EBAY-SIGNATURE` header for a body: base64 JSON as eBay's, but signed with the shared webhook secret
 * (HMAC-SHA256) instead of eBay's ECDSA key, since there is no key service to fetch it from.
 */
export function signatureHeader(body: string, secret: string): string {
  const signature = hmac(secret, body).toString("base64");
  return Buffer.from(JSON.stringify({ alg: "HS256", kid: "sandbox", signature, digest: "SHA256" })).toString("base64");
}

/** Whether the header is the sandbox's signature of exactly this body. */
export function signatureMatches(header: string | null, body: string, secret: string): boolean {
  if (!header) return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(header, "base64").toString("utf8"));
  } catch {
    return false;
  }
  if (typeof parsed !== "object" || parsed === null) return false;
  const { alg, signature } = parsed as { alg?: unknown; signature?: unknown };
  if (alg !== "HS256" || typeof signature !== "string") return false;
  const presented = Buffer.from(signature, "base64");
  const expected = hmac(secret, body);
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}

/** What a genuine notification says, or null when the body is not one. */
export function readNotificationBody(body: string): MarketplaceNotice | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null;
  }
  const message = parsed as { metadata?: { topic?: unknown }; notification?: { data?: { orderId?: unknown; username?: unknown; userId?: unknown } } } | null;
  const topic = message?.metadata?.topic;
  if (typeof topic !== "string") return null;
  if (topic === "MARKETPLACE_ACCOUNT_DELETION") {
    const { username, userId } = message?.notification?.data ?? {};
    return typeof username === "string" && username ? { kind: "accountDeletion", username, userId: typeof userId === "string" ? userId : "" } : { kind: "other", topic };
  }
  if (topic !== "ORDER_CONFIRMATION") return { kind: "other", topic };
  const orderId = message?.notification?.data?.orderId;
  return typeof orderId === "string" && orderId ? { kind: "order", orderId } : null;
}

/** eBay's answer to the endpoint check: hex SHA-256 of the challenge code, the verification token and the endpoint. */
export function challengeResponse(challengeCode: string, verificationToken: string, endpointUrl: string): string {
  return createHash("sha256").update(challengeCode).update(verificationToken).update(endpointUrl).digest("hex");
}
