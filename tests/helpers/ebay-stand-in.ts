import { createSign, generateKeyPairSync, randomUUID, type KeyObject } from "node:crypto";
import type { EbayTransaction } from "@/server/integrations/marketplace/ebay-finances";
import { publicKeyOf, verifyEbaySignature } from "@/server/integrations/marketplace/ebay-signature";
import { isTaxonomyPath, taxonomyAnswer } from "./ebay-taxonomy-stand-in";
import { startProviderServer, type ProviderAnswer, type ProviderServer, type ReceivedRequest } from "./provider-server";

/**
 * A local stand-in for eBay's REST APIs as the live marketplace adapter uses them (PROVIDERS.md section 5): OAuth
 * (refresh-token and client-credentials grants), Inventory v1 (bulk item writes, offers, bulk price and quantity),
 * Fulfillment v1 (orders paged by `limit`/`offset` with `href`/`next`/`total`, shipping fulfilments, refunds) and the
 * Notification API's public keys, the Key Management API's signing keys and the Finances API's transactions, with
 * issue_refund and every Finances call refused unless signed with a key it issued (eBay's digital signature), with eBay's `{"errors":[{errorId, domain, category, message, longMessage,
 * parameters}]}` on refusals. The error ids are eBay's where its pages name one for the case. A test adds orders and
 * public keys, and makes eBay refuse things, through the stand-in's fields.
 */

export const ebayCredentials = {
  clientId: "BalanceC-shop-PRD-7e2d4c1a9-3f5b8a21",
  clientSecret: "PRD-e2d4c1a93f5b-8a21-4c7d-9e0f-1a2b",
  refreshToken: "v^1.1#i^1#p^3#r^1#f^0#I^3#t^Ul4xMF8xMTpGMDRBQjk3RkMxQ0U0QTk1",
};

const userScopes = ["sell.inventory", "sell.fulfillment", "sell.account", "sell.finances"].map((scope) => `https://api.ebay.com/oauth/api_scope/${scope}`);
const applicationScope = "https://api.ebay.com/oauth/api_scope";

export type EbayErrorEntry = { errorId: number; domain: string; category: string; message: string; longMessage?: string; parameters?: { name: string; value: string }[] };

export type FakeEbayOffer = {
  offerId: string;
  /** The offer as last written, eBay's JSON. */
  record: Record<string, unknown> & { sku: string; marketplaceId: string; availableQuantity?: number; pricingSummary?: { price?: { value: string; currency: string } } };
  status: "PUBLISHED" | "UNPUBLISHED";
  listingId: string | null;
  listingStatus: "ACTIVE" | "ENDED" | null;
};

export type EbayAmount = { value: string; currency: string };

/** An order in eBay's Fulfillment API shape (the fields the shop reads, and a few more as eBay sends them). */
export type EbayOrderJson = {
  orderId: string;
  creationDate: string;
  lastModifiedDate: string;
  orderFulfillmentStatus: "NOT_STARTED" | "IN_PROGRESS" | "FULFILLED";
  orderPaymentStatus: string;
  sellerId: string;
  buyer: { username: string; buyerRegistrationAddress?: { fullName: string; email?: string } };
  pricingSummary: { priceSubtotal: EbayAmount; deliveryCost: EbayAmount; total: EbayAmount };
  cancelStatus: { cancelState: string; cancelRequests: unknown[] };
  paymentSummary: { totalDueSeller: EbayAmount; refunds: { refundId: string; refundStatus: string; amount: EbayAmount; refundDate?: string }[]; payments: unknown[] };
  fulfillmentStartInstructions: {
    fulfillmentInstructionsType: string;
    shippingStep: {
      shipTo: {
        fullName: string;
        contactAddress: { addressLine1: string; addressLine2?: string; city: string; stateOrProvince?: string; postalCode: string; countryCode: string };
        primaryPhone?: { phoneNumber: string };
        email?: string;
      };
      shippingCarrierCode?: string;
      shippingServiceCode?: string;
    };
  }[];
  lineItems: {
    lineItemId: string;
    legacyItemId: string;
    sku?: string;
    title: string;
    quantity: number;
    lineItemCost: EbayAmount;
    lineItemFulfillmentStatus: "NOT_STARTED" | "IN_PROGRESS" | "FULFILLED";
    /** Refunds of this line (issue_refund's refundItems): eBay lists them here, not in the payment summary. */
    refunds?: { refundId: string; amount: EbayAmount; refundDate?: string }[];
  }[];
  salesRecordReference: string;
};

/** An eBay order of one line, for a test to change as it needs. */
export function ebayOrderJson(orderId: string, overrides: { lastModifiedDate?: string; sku?: string; quantity?: number; price?: string } = {}): EbayOrderJson {
  const price = overrides.price ?? "249.00";
  const delivery = "12.50";
  const modified = overrides.lastModifiedDate ?? "2026-03-04T09:15:00.000Z";
  return {
    orderId,
    creationDate: "2026-03-04T09:10:00.000Z",
    lastModifiedDate: modified,
    orderFulfillmentStatus: "NOT_STARTED",
    orderPaymentStatus: "PAID",
    sellerId: "balance_and_crown",
    buyer: { username: "horloge_liefhebber", buyerRegistrationAddress: { fullName: "Joost de Vries", email: "4f1c2e0a9b@members.ebay.com" } },
    pricingSummary: {
      priceSubtotal: { value: price, currency: "EUR" },
      deliveryCost: { value: delivery, currency: "EUR" },
      total: { value: (Number(price) + Number(delivery)).toFixed(2), currency: "EUR" },
    },
    cancelStatus: { cancelState: "NONE_REQUESTED", cancelRequests: [] },
    paymentSummary: { totalDueSeller: { value: price, currency: "EUR" }, refunds: [], payments: [] },
    fulfillmentStartInstructions: [
      {
        fulfillmentInstructionsType: "SHIP_TO",
        shippingStep: {
          shipTo: {
            fullName: "Joost de Vries",
            contactAddress: { addressLine1: "Oudegracht 112", addressLine2: "bis", city: "Utrecht", postalCode: "3511 AX", countryCode: "NL" },
            primaryPhone: { phoneNumber: "0612345678" },
            email: "4f1c2e0a9b@members.ebay.com",
          },
          shippingCarrierCode: "PostNL",
          shippingServiceCode: "NL_PostNLStandard",
        },
      },
    ],
    lineItems: [
      {
        lineItemId: `${orderId.replace(/\D/g, "").slice(-8) || "1"}0001`,
        legacyItemId: "110554123456",
        ...(overrides.sku === undefined ? { sku: "BC-1" } : overrides.sku ? { sku: overrides.sku } : {}),
        title: "Omega Seamaster 300 ref. 165.024, 1967",
        quantity: overrides.quantity ?? 1,
        lineItemCost: { value: price, currency: "EUR" },
        lineItemFulfillmentStatus: "NOT_STARTED",
      },
    ],
    salesRecordReference: "1043",
  };
}

/** A Notification API message as eBay delivers it. */
export function ebayNotificationBody(topic: string, data: Record<string, unknown>, publishDate = "2026-03-04T08:59:03.000Z"): string {
  const eventDate = new Date(Date.parse(publishDate) - 1000).toISOString();
  return JSON.stringify({
    metadata: { topic, schemaVersion: "1.0", deprecated: false },
    notification: { notificationId: "49feeaeb-4982-42d9-a377-9645b8479411_33f7e043-fb47-4a6f-9c2a-b3b1b4f9c1e1", eventDate, publishDate, publishAttemptCount: 1, data },
  });
}

/**
 * The `X-EBAY-SIGNATURE` header eBay puts on a message: base64 JSON of the ECDSA signature (SHA-1, DER, base64) and
 * the key's id. eBay's SDK signs and verifies `JSON.stringify(JSON.parse(body))`; `over: "raw"` signs the bytes sent.
 */
export function signEbayNotification(body: string, privateKey: KeyObject, kid: string, over: "raw" | "reserialised" = "reserialised"): string {
  const signed = over === "raw" ? body : JSON.stringify(JSON.parse(body));
  const signature = createSign("sha1").update(signed).sign(privateKey, "base64");
  return Buffer.from(JSON.stringify({ alg: "ecdsa", kid, signature, digest: "SHA1" })).toString("base64");
}

export type EbayStandIn = ProviderServer & {
  /** Inventory items by SKU, as last written, with the language they were written in. */
  items: Map<string, { contentLanguage: string; record: Record<string, unknown> & { availability?: { shipToLocationAvailability?: { quantity?: number } } } }>;
  offers: Map<string, FakeEbayOffer>;
  /** The seller's orders; a test adds them. */
  orders: EbayOrderJson[];
  /** Shipping fulfilments reported, by order id, as sent. */
  fulfillments: Map<string, unknown[]>;
  /** The Notification API's public keys by key id, as PEM; a test adds its own. */
  publicKeys: Map<string, string>;
  /** What `expires_in` says on the next tokens, in seconds. */
  tokenLifetimeSeconds: { value: number };
  /** Ends every access token issued so far, as eBay does when one expires or is revoked: calls with it get 401. */
  revokeAccessTokens: () => void;
  /** SKUs that the bulk item and price-quantity writes refuse, each with the error eBay gives for it. */
  refusedSkus: Map<string, EbayErrorEntry>;
  /** The next call to an API (not the token endpoint) answers this instead, as eBay under load or a dropped line. */
  failNextCall: (answer: ProviderAnswer) => void;
  /** The signing keys the Key Management stand-in issued: public key (base64 SPKI) by JWE. */
  signingKeys: Map<string, { signingKeyId: string; publicKey: string; expiresAt: number }>;
  /** The Finances API's transactions; a test adds them (a sale's fees, say). */
  transactions: EbayTransaction[];
};

const ebayError = (status: number, errors: EbayErrorEntry[]): ProviderAnswer => ({ status, body: { errors, warnings: [] } });
const inventoryError = (errorId: number, message: string, parameters?: { name: string; value: string }[]): EbayErrorEntry => ({
  errorId,
  domain: "API_INVENTORY",
  category: "REQUEST",
  message,
  ...(parameters ? { parameters } : {}),
});
const fulfillmentError = (errorId: number, message: string, longMessage?: string): EbayErrorEntry => ({
  errorId,
  domain: "API_FULFILLMENT",
  category: "REQUEST",
  message,
  ...(longMessage ? { longMessage } : {}),
});
const languages = new Set(["nl-NL", "de-DE"]);

export async function startEbayStandIn(): Promise<EbayStandIn> {
  const items: EbayStandIn["items"] = new Map();
  const offers: EbayStandIn["offers"] = new Map();
  const orders: EbayOrderJson[] = [];
  const fulfillments: EbayStandIn["fulfillments"] = new Map();
  const publicKeys: EbayStandIn["publicKeys"] = new Map();
  const refusedSkus: EbayStandIn["refusedSkus"] = new Map();
  const signingKeys: EbayStandIn["signingKeys"] = new Map();
  const transactions: EbayTransaction[] = [];
  const tokenLifetimeSeconds = { value: 7200 };
  const userTokens = new Set<string>();
  const applicationTokens = new Set<string>();
  const issued = { user: 0, application: 0 };
  let nextFailure: ProviderAnswer | null = null;
  let nextOfferId = 5_005_317_010;
  let nextListingId = 110_554_000_001;
  let nextFulfillmentId = 1;
  let nextRefundId = 1;
  let base = "";

  const token = (request: ReceivedRequest): ProviderAnswer => {
    const expected = `Basic ${Buffer.from(`${ebayCredentials.clientId}:${ebayCredentials.clientSecret}`).toString("base64")}`;
    if (request.headers.authorization !== expected) return { status: 401, body: { error: "invalid_client", error_description: "client authentication failed" } };
    const form = new URLSearchParams(request.body);
    const scopes = (form.get("scope") ?? "").split(" ").filter(Boolean);
    if (form.get("grant_type") === "refresh_token") {
      if (form.get("refresh_token") !== ebayCredentials.refreshToken) {
        return { status: 400, body: { error: "invalid_grant", error_description: "the provided authorization refresh token is invalid or was issued to another client" } };
      }
      if (scopes.some((scope) => !userScopes.includes(scope))) return { status: 400, body: { error: "invalid_scope", error_description: "The requested scope is invalid, unknown, malformed, or exceeds the scope granted to the client" } };
      const accessToken = `v^1.1#i^1#f^0#p^3#r^0#I^3#t^user-${++issued.user}`;
      userTokens.add(accessToken);
      return { status: 200, body: { access_token: accessToken, expires_in: tokenLifetimeSeconds.value, token_type: "User Access Token" } };
    }
    if (form.get("grant_type") === "client_credentials") {
      if (scopes.join(" ") !== applicationScope) return { status: 400, body: { error: "invalid_scope", error_description: "The requested scope is invalid, unknown, malformed, or exceeds the scope granted to the client" } };
      const accessToken = `v^1.1#i^1#p^1#r^0#I^3#f^0#t^app-${++issued.application}`;
      applicationTokens.add(accessToken);
      return { status: 200, body: { access_token: accessToken, expires_in: tokenLifetimeSeconds.value, token_type: "Application Access Token" } };
    }
    return { status: 400, body: { error: "unsupported_grant_type", error_description: "grant type in request is not supported by the authorization server" } };
  };

  const offerJson = (offer: FakeEbayOffer) => ({
    ...offer.record,
    offerId: offer.offerId,
    status: offer.status,
    ...(offer.listingId ? { listing: { listingId: offer.listingId, listingStatus: offer.listingStatus, soldQuantity: 0 } } : {}),
  });

  const inventory = (request: ReceivedRequest, path: string): ProviderAnswer => {
    const contentLanguage = String(request.headers["content-language"] ?? "");
    const needsLanguage = (request.method === "POST" && (path === "/bulk_create_or_replace_inventory_item" || path === "/offer")) || (request.method === "PUT" && path.startsWith("/offer/"));
    if (needsLanguage && !languages.has(contentLanguage)) {
      return ebayError(400, [inventoryError(25709, `Invalid value for header Content-Language. Accepted values: ${[...languages].join(", ")}`, [{ name: "fieldName", value: "Content-Language" }])]);
    }

    if (request.method === "POST" && path === "/bulk_create_or_replace_inventory_item") {
      const requests = (request.json as { requests?: (Record<string, unknown> & { sku?: string; locale?: string })[] } | undefined)?.requests ?? [];
      if (requests.length === 0 || requests.length > 25) return ebayError(400, [inventoryError(25002, "A user error has occurred. The number of requests must be between 1 and 25.")]);
      const responses = requests.map((item) => {
        const sku = item.sku ?? "";
        const refused = refusedSkus.get(sku);
        if (refused) return { statusCode: 400, sku, locale: item.locale, errors: [refused], warnings: [] };
        if (!sku || !(item as { product?: { title?: string } }).product?.title) {
          return { statusCode: 400, sku, locale: item.locale, errors: [inventoryError(25002, "A user error has occurred. The product title is missing.")], warnings: [] };
        }
        items.set(sku, { contentLanguage, record: item });
        return { statusCode: 200, sku, locale: item.locale, warnings: [] };
      });
      return { status: responses.every((response) => response.statusCode === 200) ? 200 : 207, body: { responses } };
    }

    const itemMatch = /^\/inventory_item\/([^/]+)$/.exec(path);
    if (request.method === "GET" && itemMatch) {
      const sku = decodeURIComponent(itemMatch[1]!);
      const item = items.get(sku);
      if (!item) return ebayError(404, [inventoryError(25702, `SKU ${sku} is not available in the system`, [{ name: "sku", value: sku }])]);
      return { status: 200, body: item.record };
    }

    if (request.method === "GET" && path === "/offer") {
      const sku = request.query.get("sku");
      if (!sku) return ebayError(400, [inventoryError(25707, "This is an invalid value for a SKU. Only alphanumeric characters can be used for SKUs, and their length must not exceed 50 characters")]);
      const found = [...offers.values()].filter((offer) => offer.record.sku === sku);
      if (found.length === 0) return ebayError(404, [inventoryError(25713, "This Offer is not available.")]);
      return { status: 200, body: { href: `${base}/sell/inventory/v1/offer?sku=${encodeURIComponent(sku)}&limit=100&offset=0`, limit: 100, offers: found.map(offerJson), size: found.length, total: found.length } };
    }

    if (request.method === "POST" && path === "/offer") {
      const record = request.json as FakeEbayOffer["record"];
      if (!record?.sku || !record.marketplaceId || (record as { format?: string }).format !== "FIXED_PRICE") return ebayError(400, [inventoryError(25002, "A user error has occurred. sku, marketplaceId and format are required.")]);
      const existing = [...offers.values()].find((offer) => offer.record.sku === record.sku && offer.record.marketplaceId === record.marketplaceId);
      if (existing) return ebayError(400, [inventoryError(25002, "A user error has occurred. Offer entity already exists.", [{ name: "offerId", value: existing.offerId }])]);
      const offer: FakeEbayOffer = { offerId: String(nextOfferId++), record, status: "UNPUBLISHED", listingId: null, listingStatus: null };
      offers.set(offer.offerId, offer);
      return { status: 201, body: { offerId: offer.offerId, warnings: [] } };
    }

    const offerMatch = /^\/offer\/([^/]+)(\/publish|\/withdraw)?$/.exec(path);
    if (offerMatch) {
      const offer = offers.get(decodeURIComponent(offerMatch[1]!));
      if (!offer) return ebayError(404, [inventoryError(25713, "This Offer is not available.")]);
      if (request.method === "PUT" && !offerMatch[2]) {
        offer.record = request.json as FakeEbayOffer["record"];
        return { status: 204 };
      }
      if (request.method === "POST" && offerMatch[2] === "/publish") {
        if (!request.body) return { status: 411, body: "Length Required" };
        if (!items.has(offer.record.sku)) return ebayError(400, [inventoryError(25702, `SKU ${offer.record.sku} is not available in the system`)]);
        if (offer.status !== "PUBLISHED") {
          offer.listingId = String(nextListingId++);
          offer.status = "PUBLISHED";
          offer.listingStatus = "ACTIVE";
        }
        return { status: 200, body: { listingId: offer.listingId, warnings: [] } };
      }
      if (request.method === "POST" && offerMatch[2] === "/withdraw") {
        if (offer.status !== "PUBLISHED") return ebayError(400, [inventoryError(25713, "This Offer is not available.")]);
        offer.status = "UNPUBLISHED";
        offer.listingStatus = "ENDED";
        return { status: 200, body: { listingId: offer.listingId, warnings: [] } };
      }
    }

    if (request.method === "POST" && path === "/bulk_update_price_quantity") {
      type Update = { sku: string; shipToLocationAvailability?: { quantity: number }; offers?: { offerId: string; availableQuantity?: number; price?: EbayAmount }[] };
      const requests = (request.json as { requests?: Update[] } | undefined)?.requests ?? [];
      if (requests.length === 0 || requests.length > 25) return ebayError(400, [inventoryError(25002, "A user error has occurred. The number of requests must be between 1 and 25.")]);
      const responses = requests.flatMap((update) =>
        (update.offers ?? []).map((change) => {
          const refused = refusedSkus.get(update.sku);
          if (refused) return { offerId: change.offerId, sku: update.sku, statusCode: 400, errors: [refused], warnings: [] };
          const offer = offers.get(change.offerId);
          if (!offer || offer.record.sku !== update.sku) return { offerId: change.offerId, sku: update.sku, statusCode: 404, errors: [inventoryError(25713, "This Offer is not available.")], warnings: [] };
          if (change.availableQuantity !== undefined) offer.record.availableQuantity = change.availableQuantity;
          if (change.price) offer.record.pricingSummary = { ...offer.record.pricingSummary, price: change.price };
          const item = items.get(update.sku);
          if (item && update.shipToLocationAvailability) item.record.availability = { shipToLocationAvailability: { quantity: update.shipToLocationAvailability.quantity } };
          return { offerId: change.offerId, sku: update.sku, statusCode: 200, warnings: [] };
        }),
      );
      return { status: responses.every((response) => response.statusCode === 200) ? 200 : 207, body: { responses } };
    }
    return ebayError(404, [inventoryError(2002, `No such resource in the stand-in: ${request.method} ${path}`)]);
  };

  const fulfillment = (request: ReceivedRequest, path: string): ProviderAnswer => {
    if (request.method === "GET" && path === "/order") {
      const orderIds = request.query.get("orderIds");
      if (orderIds) {
        const ids = orderIds.split(",");
        if (ids.length > 50) return ebayError(400, [fulfillmentError(30850, "The maximum number of order IDs is 50.")]);
        const found = orders.filter((order) => ids.includes(order.orderId));
        return { status: 200, body: { href: `${base}/sell/fulfillment/v1/order?orderIds=${orderIds}`, total: found.length, limit: 50, offset: 0, orders: found, warnings: [] } };
      }
      const limit = Number(request.query.get("limit") ?? 50);
      const offset = Number(request.query.get("offset") ?? 0);
      if (!Number.isInteger(limit) || limit < 1 || limit > 200) return ebayError(400, [fulfillmentError(30830, "Invalid limit. Supported ranges 1 - 200.")]);
      if (!Number.isInteger(offset) || offset < 0) return ebayError(400, [fulfillmentError(30820, "Invalid offset.")]);
      const filter = request.query.get("filter") ?? "";
      let matching = orders;
      if (filter) {
        const window = /^lastmodifieddate:\[(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)\.\.(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)?\]$/.exec(filter);
        if (!window) return ebayError(400, [fulfillmentError(30700, "Invalid filter.", `The filter ${filter} is not valid: use lastmodifieddate:[YYYY-MM-DDThh:mm:ss.000Z..YYYY-MM-DDThh:mm:ss.000Z].`)]);
        const from = Date.parse(window[1]!);
        const to = window[2] ? Date.parse(window[2]) : Infinity;
        matching = orders.filter((order) => Date.parse(order.lastModifiedDate) >= from && Date.parse(order.lastModifiedDate) <= to);
      }
      const page = matching.slice(offset, offset + limit);
      const link = (at: number) => `${base}/sell/fulfillment/v1/order?${new URLSearchParams({ ...(filter ? { filter } : {}), limit: String(limit), offset: String(at) })}`;
      return {
        status: 200,
        body: {
          href: link(offset),
          total: matching.length,
          limit,
          offset,
          ...(offset + limit < matching.length ? { next: link(offset + limit) } : {}),
          ...(offset > 0 ? { prev: link(Math.max(0, offset - limit)) } : {}),
          orders: page,
        },
      };
    }

    const orderMatch = /^\/order\/([^/]+)(\/shipping_fulfillment|\/issue_refund)?$/.exec(path);
    const order = orderMatch ? orders.find((candidate) => candidate.orderId === decodeURIComponent(orderMatch[1]!)) : undefined;
    if (!orderMatch || !order) return ebayError(404, [fulfillmentError(32100, "Invalid order ID.", `Invalid order ID: ${orderMatch?.[1] ?? path}`)]);
    if (request.method === "GET" && !orderMatch[2]) return { status: 200, body: order };

    if (request.method === "POST" && orderMatch[2] === "/shipping_fulfillment") {
      const body = request.json as { lineItems?: { lineItemId: string; quantity: number }[]; shippingCarrierCode?: string; trackingNumber?: string } | undefined;
      if (!body?.trackingNumber || !/^[A-Za-z0-9]+$/.test(body.trackingNumber)) return ebayError(400, [fulfillmentError(34100, "Invalid tracking number.", "The tracking number may hold letters and digits only.")]);
      if (!body.shippingCarrierCode) return ebayError(400, [fulfillmentError(34200, "Invalid shipping carrier.")]);
      const lines = body.lineItems ?? [];
      if (lines.length === 0 || lines.some((line) => !order.lineItems.some((item) => item.lineItemId === line.lineItemId))) return ebayError(400, [fulfillmentError(34500, "Invalid line item ID.")]);
      fulfillments.set(order.orderId, [...(fulfillments.get(order.orderId) ?? []), body]);
      for (const item of order.lineItems) if (lines.some((line) => line.lineItemId === item.lineItemId)) item.lineItemFulfillmentStatus = "FULFILLED";
      order.orderFulfillmentStatus = order.lineItems.every((item) => item.lineItemFulfillmentStatus === "FULFILLED") ? "FULFILLED" : "IN_PROGRESS";
      const fulfillmentId = String(nextFulfillmentId++);
      return { status: 201, headers: { location: `${base}/sell/fulfillment/v1/order/${order.orderId}/shipping_fulfillment/${fulfillmentId}` } };
    }

    if (request.method === "POST" && orderMatch[2] === "/issue_refund") {
      const body = request.json as { reasonForRefund?: string; orderLevelRefundAmount?: EbayAmount; refundItems?: { lineItemId: string; refundAmount: EbayAmount }[] } | undefined;
      if (!body?.reasonForRefund) return ebayError(400, [fulfillmentError(34900, "The refund reason is missing.")]);
      const total = body.orderLevelRefundAmount ? Number(body.orderLevelRefundAmount.value) : (body.refundItems ?? []).reduce((sum, item) => sum + Number(item.refundAmount.value), 0);
      const lineRefunds = order.lineItems.flatMap((item) => item.refunds ?? []);
      const refunded = [...order.paymentSummary.refunds, ...lineRefunds].reduce((sum, refund) => sum + Number(refund.amount.value), 0);
      if (!(total > 0) || total + refunded > Number(order.pricingSummary.total.value) + 1e-9) return ebayError(400, [fulfillmentError(34901, "The refund amount exceeds the amount the buyer paid.")]);
      const refundItems = body.refundItems ?? [];
      if (refundItems.some((line) => !order.lineItems.some((item) => item.lineItemId === line.lineItemId))) return ebayError(400, [fulfillmentError(34500, "Invalid line item ID.")]);
      const refundId = `5${String(nextRefundId++).padStart(10, "0")}`;
      // eBay lists a refund of lines under those lines (with no status of its own), a refund of the order in its
      // payment summary.
      if (body.orderLevelRefundAmount) order.paymentSummary.refunds.push({ refundId, refundStatus: "PENDING", amount: { value: total.toFixed(2), currency: "EUR" } });
      for (const line of refundItems) {
        const item = order.lineItems.find((candidate) => candidate.lineItemId === line.lineItemId)!;
        item.refunds = [...(item.refunds ?? []), { refundId, amount: line.refundAmount }];
      }
      return { status: 200, body: { refundId, refundStatus: "PENDING" } };
    }
    return ebayError(404, [fulfillmentError(2002, `No such resource in the stand-in: ${request.method} ${path}`)]);
  };

  const handle = (request: ReceivedRequest): ProviderAnswer => {
    if (request.method === "POST" && request.path === "/identity/v1/oauth2/token") return token(request);
    if (nextFailure) {
      const failure = nextFailure;
      nextFailure = null;
      return failure;
    }
    const bearer = /^Bearer (.+)$/.exec(String(request.headers.authorization ?? ""))?.[1] ?? "";
    const keyMatch = /^\/commerce\/notification\/v1\/public_key\/([^/]+)$/.exec(request.path);
    // getPublicKey, the Key Management, Taxonomy and Metadata APIs take an application token (client credentials); the seller's APIs take
    // the seller's token.
    const asApplication = keyMatch || isTaxonomyPath(request.path) || request.path.startsWith("/developer/key_management/");
    if (!(asApplication ? applicationTokens : userTokens).has(bearer)) {
      return ebayError(401, [{ errorId: 1001, domain: "OAuth", category: "REQUEST", message: "Invalid access token", longMessage: "Invalid access token. Check the value of the Authorization HTTP request header." }]);
    }
    if (request.path === "/developer/key_management/v1/signing_key" && request.method === "POST") {
      if (!applicationTokens.has(bearer)) return ebayError(401, [{ errorId: 1001, domain: "OAuth", category: "REQUEST", message: "Invalid access token" }]);
      const cipher = (request.json as { signingKeyCipher?: string } | undefined)?.signingKeyCipher;
      if (cipher !== "ED25519") return ebayError(400, [{ errorId: 195000, domain: "API_KEYS", category: "REQUEST", message: "The signingKeyCipher is invalid; use ED25519 or RSA." }]);
      const pair = generateKeyPairSync("ed25519");
      const signingKeyId = randomUUID();
      const jwe = `eyJ6aXAiOiJERUYiLCJraWQiOiI${Buffer.from(signingKeyId).toString("base64url")}.${randomUUID()}.${randomUUID()}`;
      const creationTime = Math.floor(Date.now() / 1000);
      const expirationTime = creationTime + 3 * 365 * 24 * 3600;
      const publicKey = pair.publicKey.export({ format: "der", type: "spki" }).toString("base64");
      signingKeys.set(jwe, { signingKeyId, publicKey, expiresAt: expirationTime * 1000 });
      // eBay gives the private key in this answer only.
      return { status: 200, body: { signingKeyId, signingKeyCipher: "ED25519", publicKey, privateKey: pair.privateKey.export({ format: "der", type: "pkcs8" }).toString("base64"), jwe, creationTime, expirationTime } };
    }
    if (signatureRequired(request)) {
      const headers = new Headers(Object.entries(request.headers).flatMap(([name, value]) => (typeof value === "string" ? [[name, value] as [string, string]] : [])));
      const refusal = verifyEbaySignature({ method: request.method, url: `http://${String(request.headers.host)}${request.path}`, body: request.body || null }, headers, (jwe) => {
        const key = signingKeys.get(jwe);
        return key && key.expiresAt > Date.now() ? publicKeyOf(key.publicKey) : null;
      });
      if (refusal) return ebayError(refusal.status, [{ errorId: refusal.errorId, domain: "ACCESS", category: "REQUEST", message: refusal.message.split(":")[0]!, longMessage: refusal.message }]);
    }
    if (request.path === "/sell/finances/v1/transaction" && request.method === "GET") {
      const orderId = /^orderId:\{([^}]+)\}$/.exec(request.query.get("filter") ?? "")?.[1];
      const found = orderId ? transactions.filter((transaction) => transaction.orderId === orderId) : transactions;
      return { status: 200, body: { href: `${base}${request.path}?${request.query}`, limit: 200, offset: 0, total: found.length, transactions: found } };
    }
    if (keyMatch && request.method === "GET") {
      const pem = publicKeys.get(decodeURIComponent(keyMatch[1]!));
      if (!pem) return ebayError(404, [{ errorId: 195001, domain: "API_NOTIFICATION", category: "REQUEST", message: "The specified public key was not found." }]);
      // eBay sends the key on one line between its markers.
      return { status: 200, body: { algorithm: "ECDSA", digest: "SHA1", key: pem.replace(/\n/g, "") } };
    }
    const described = taxonomyAnswer(request);
    if (described) return described;
    // getPrivileges (Account API): a read as the seller, with a monthly selling limit as eBay gives new sellers.
    if (request.method === "GET" && request.path === "/sell/account/v1/privilege") {
      return { status: 200, body: { sellingLimit: { amount: { value: "25000.0", currency: "EUR" }, quantity: 500 }, sellerRegistrationCompleted: true } };
    }
    if (request.path.startsWith("/sell/inventory/v1/")) return inventory(request, request.path.slice("/sell/inventory/v1".length));
    if (request.path.startsWith("/sell/fulfillment/v1/")) return fulfillment(request, request.path.slice("/sell/fulfillment/v1".length));
    return ebayError(404, [{ errorId: 2002, domain: "ACCESS", category: "REQUEST", message: `No such resource in the stand-in: ${request.method} ${request.path}` }]);
  };

  const signatureRequired = (request: ReceivedRequest) =>
    request.path.startsWith("/sell/finances/") || (request.method === "POST" && /^\/sell\/fulfillment\/v1\/order\/[^/]+\/issue_refund$/.test(request.path));

  const server = await startProviderServer(handle);
  base = server.url;
  return {
    ...server,
    items,
    offers,
    orders,
    fulfillments,
    publicKeys,
    refusedSkus,
    signingKeys,
    transactions,
    tokenLifetimeSeconds,
    revokeAccessTokens: () => {
      userTokens.clear();
      applicationTokens.clear();
    },
    failNextCall: (answer) => {
      nextFailure = answer;
    },
  };
}
