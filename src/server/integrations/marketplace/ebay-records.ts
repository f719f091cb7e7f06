import { Decimal } from "decimal.js";
import { z } from "zod";
import { marketplaceIds, type MarketplaceId } from "@/lib/enums";
import { ebayErrors, ebayErrorText } from "./ebay-client";
import type { MarketplaceItem, MarketplaceItemResult, MarketplaceOfferRecord, MarketplaceOfferState, MarketplaceOrder, MarketplaceOrderRefund, MarketplaceRefund, MarketplaceRefundRequest, MarketplaceShipment, PriceQuantityUpdate } from "./port";

/**
 * The port's records in eBay's JSON and back (Inventory API v1, Fulfillment API v1; PROVIDERS.md section 5). Writes
 * are always the whole record, since eBay replaces what it keeps with what it is sent.
 */

export type EbayPolicies = { fulfillmentPolicyId: string; paymentPolicyId: string; returnPolicyId: string };

/** The language an item is written in on each marketplace: its `Content-Language` header, and the item's locale. */
export const marketplaceLanguages: Record<MarketplaceId, string> = { EBAY_NL: "nl-NL", EBAY_DE: "de-DE" };

/** An amount in eBay's shape: two decimals as text, in euro. */
export const ebayAmount = (value: Decimal) => ({ value: value.toFixed(2), currency: "EUR" });

/**
 * An inventory item in eBay's shape: one request of bulk_create_or_replace_inventory_item, and what
 * `GET /inventory_item/{sku}` answers (the sandbox marketplace keeps it so).
 */
export function inventoryItemRequest(item: MarketplaceItem) {
  return {
    sku: item.sku,
    locale: marketplaceLanguages[item.marketplaceId].replace("-", "_"),
    condition: item.condition,
    // eBay leaves out what was not given rather than answering null.
    ...(item.conditionDescription ? { conditionDescription: item.conditionDescription } : {}),
    product: { title: item.title, description: item.description, aspects: item.aspects, imageUrls: item.imageUrls },
    availability: { shipToLocationAvailability: { quantity: item.quantity } },
  };
}

/** An offer's details in eBay's shape, as written and as read back (the sandbox marketplace keeps them so). */
export function offerDetails(offer: MarketplaceOfferRecord) {
  return {
    sku: offer.sku,
    marketplaceId: offer.marketplaceId,
    format: "FIXED_PRICE" as const,
    availableQuantity: offer.quantity,
    categoryId: offer.categoryId,
    storeCategoryNames: offer.storeCategoryNames,
    listingDescription: offer.listingDescription,
    pricingSummary: { price: ebayAmount(offer.price) },
  };
}

/** The whole offer eBay is sent: its details and the seller's policies and inventory location. */
export function offerRequest(offer: MarketplaceOfferRecord, policies: EbayPolicies, merchantLocationKey: string) {
  return { ...offerDetails(offer), listingPolicies: policies, merchantLocationKey };
}

/** One request of bulk_update_price_quantity: the item's quantity and the offer's, which eBay lists the smaller of. */
export function priceQuantityRequest(update: PriceQuantityUpdate) {
  return {
    sku: update.sku,
    shipToLocationAvailability: { quantity: update.quantity },
    offers: [{ offerId: update.offerId, availableQuantity: update.quantity, ...(update.price ? { price: ebayAmount(update.price) } : {}) }],
  };
}

const bulkResponse = z.object({ statusCode: z.coerce.number(), sku: z.string().optional(), offerId: z.string().optional(), errors: ebayErrors.optional() });
/** The answer of eBay's bulk calls: one entry per item (or offer), each with its own status. */
export const bulkAnswer = z.object({ responses: z.array(bulkResponse).catch([]) });

/** Each item's result, by eBay's entry for it; an item eBay did not answer for failed as far as the shop can tell. */
export function itemResults(keys: readonly { sku: string; offerId?: string }[], responses: z.infer<typeof bulkResponse>[]): MarketplaceItemResult[] {
  return keys.map(({ sku, offerId }) => {
    const entry = responses.find((response) => (offerId && response.offerId ? response.offerId === offerId : response.sku === sku));
    if (!entry) return { sku, ok: false, statusCode: 500, error: "eBay's answer had no result for this item." };
    const ok = entry.statusCode >= 200 && entry.statusCode < 300;
    return { sku, ok, statusCode: entry.statusCode, error: ok ? null : entry.errors?.length ? ebayErrorText(entry.errors) : `HTTP ${entry.statusCode}` };
  });
}

const money = z.object({ value: z.string(), currency: z.string().optional() });
export const ebayOffer = z.object({
  offerId: z.string(),
  sku: z.string(),
  marketplaceId: z.string(),
  status: z.string(),
  availableQuantity: z.number().optional(),
  pricingSummary: z.object({ price: money.optional() }).optional(),
  listing: z.object({ listingId: z.string().optional(), listingStatus: z.string().optional() }).optional(),
});
export const createOfferAnswer = z.object({ offerId: z.string().min(1) });
export const publishAnswer = z.object({ listingId: z.string().min(1) });
export const offersAnswer = z.object({ offers: z.array(ebayOffer).catch([]) });
export const inventoryItemAnswer = z.object({ availability: z.object({ shipToLocationAvailability: z.object({ quantity: z.number().optional() }).optional() }).optional() });

/** Whether an offer is on one of the shop's marketplaces (a seller account may have offers on others). */
export function onShopMarketplace(offer: z.infer<typeof ebayOffer>): offer is z.infer<typeof ebayOffer> & { marketplaceId: MarketplaceId } {
  return (marketplaceIds as readonly string[]).includes(offer.marketplaceId);
}

/** The offer as eBay keeps it; an offer without its own quantity offers all of the item's. */
export function offerState(offer: z.infer<typeof ebayOffer> & { marketplaceId: MarketplaceId }, itemQuantity: number): MarketplaceOfferState {
  return {
    offerId: offer.offerId,
    sku: offer.sku,
    marketplaceId: offer.marketplaceId,
    status: offer.status === "PUBLISHED" ? "PUBLISHED" : "UNPUBLISHED",
    listingId: offer.listing?.listingId ?? null,
    listingEnded: offer.listing?.listingStatus === "ENDED" || offer.listing?.listingStatus === "EBAY_ENDED",
    quantity: Math.min(offer.availableQuantity ?? itemQuantity, itemQuantity),
    price: new Decimal(offer.pricingSummary?.price?.value ?? 0),
  };
}

const address = z.object({
  addressLine1: z.string().catch(""),
  addressLine2: z.string().optional(),
  city: z.string().catch(""),
  stateOrProvince: z.string().optional(),
  postalCode: z.string().catch(""),
  countryCode: z.string().catch(""),
});
const shipTo = z.object({
  fullName: z.string().catch(""),
  contactAddress: address.catch({ addressLine1: "", city: "", postalCode: "", countryCode: "" }),
  primaryPhone: z.object({ phoneNumber: z.string().optional() }).optional(),
  email: z.string().optional(),
});
export const ebayOrder = z.object({
  orderId: z.string(),
  creationDate: z.iso.datetime({ offset: true }),
  lastModifiedDate: z.iso.datetime({ offset: true }),
  orderFulfillmentStatus: z.enum(["NOT_STARTED", "IN_PROGRESS", "FULFILLED"]),
  orderPaymentStatus: z.string(),
  buyer: z.object({ username: z.string(), buyerRegistrationAddress: z.object({ email: z.string().optional() }).optional() }),
  pricingSummary: z.object({ total: money, deliveryCost: money.optional() }),
  cancelStatus: z.object({ cancelState: z.string() }).optional(),
  lineItems: z.array(z.object({ lineItemId: z.string(), sku: z.string().optional(), title: z.string(), quantity: z.number(), lineItemCost: money })),
  fulfillmentStartInstructions: z.array(z.object({ shippingStep: z.object({ shipTo: shipTo.optional() }).optional() })).catch([]),
});
/** A page of getOrders; `next` is there while more pages follow. */
export const ordersPage = z.object({ orders: z.array(ebayOrder).catch([]), next: z.string().optional(), total: z.number().optional() });

/**
 * An eBay order as the shop reads it. Amounts are taken in the seller's currency (`value`), which is the euro on
 * the shop's marketplaces; a buyer paying in another currency shows only in `convertedFrom*`. Their currencies come
 * along, so that an order in another one is refused rather than read as euro.
 */
export function marketplaceOrder(order: z.infer<typeof ebayOrder>): MarketplaceOrder {
  const to = order.fulfillmentStartInstructions.find((instruction) => instruction.shippingStep?.shipTo)?.shippingStep?.shipTo;
  return {
    orderId: order.orderId,
    createdAt: new Date(order.creationDate),
    lastModifiedAt: new Date(order.lastModifiedDate),
    fulfillmentStatus: order.orderFulfillmentStatus,
    paymentStatus: order.orderPaymentStatus,
    cancelled: order.cancelStatus?.cancelState === "CANCELED",
    buyerUsername: order.buyer.username,
    currencies: currenciesOf([order.pricingSummary.total, order.pricingSummary.deliveryCost, ...order.lineItems.map((line) => line.lineItemCost)]),
    total: new Decimal(order.pricingSummary.total.value),
    deliveryCost: new Decimal(order.pricingSummary.deliveryCost?.value ?? 0),
    lines: order.lineItems.map((line) => ({ lineItemId: line.lineItemId, sku: line.sku ?? null, title: line.title, quantity: line.quantity, lineItemCost: new Decimal(line.lineItemCost.value) })),
    shipTo: {
      fullName: to?.fullName ?? "",
      addressLine1: to?.contactAddress.addressLine1 ?? "",
      addressLine2: to?.contactAddress.addressLine2 || null,
      postalCode: to?.contactAddress.postalCode ?? "",
      city: to?.contactAddress.city ?? "",
      stateOrProvince: to?.contactAddress.stateOrProvince || null,
      countryCode: to?.contactAddress.countryCode ?? "",
      phone: to?.primaryPhone?.phoneNumber || null,
      email: to?.email || order.buyer.buyerRegistrationAddress?.email || null,
    },
  };
}

/** The distinct currencies of eBay amounts, those that name one. */
export function currenciesOf(amounts: readonly ({ currency?: string } | undefined)[]): string[] {
  return [...new Set(amounts.flatMap((amount) => (amount?.currency ? [amount.currency.toUpperCase()] : [])))].sort();
}

/** eBay's date filter: ISO 8601 with milliseconds, in UTC. */
export function modifiedFilter(from: Date, to: Date): string {
  return `lastmodifieddate:[${from.toISOString()}..${to.toISOString()}]`;
}

export function shippingFulfillmentRequest(shipment: MarketplaceShipment) {
  return {
    lineItems: shipment.lines,
    shippedDate: shipment.shippedAt.toISOString(),
    shippingCarrierCode: shipment.carrierCode,
    // eBay takes letters and digits only: no spaces or hyphens.
    trackingNumber: shipment.trackingNumber.replace(/[^A-Za-z0-9]/g, ""),
  };
}

export function refundRequest(refund: MarketplaceRefundRequest) {
  return {
    reasonForRefund: refund.reason,
    // eBay allows 100 characters.
    ...(refund.comment ? { comment: refund.comment.slice(0, 100) } : {}),
    ...(refund.lines
      ? { refundItems: refund.lines.map((line) => ({ lineItemId: line.lineItemId, refundAmount: ebayAmount(line.amount) })) }
      : { orderLevelRefundAmount: ebayAmount(refund.amount) }),
  };
}

export const refundAnswer = z.object({ refundId: z.string(), refundStatus: z.string() });

const lineRefund = z.object({ refundId: z.string(), amount: money, refundDate: z.string().optional() });
/**
 * An order's refunds as getOrder lists them: refunds of the whole order in its payment summary, with their status;
 * refunds of lines (issue_refund's refundItems) under each line instead, with no status of their own but a
 * refundDate once the money was paid.
 */
export const orderRefunds = z.object({
  paymentSummary: z.object({ refunds: z.array(refundAnswer.extend({ amount: money })).optional() }).optional(),
  lineItems: z.array(z.object({ lineItemId: z.string(), refunds: z.array(lineRefund).optional() })).optional(),
});

export function toOrderRefunds(order: z.infer<typeof orderRefunds>): MarketplaceOrderRefund[] {
  const ofOrder = (order.paymentSummary?.refunds ?? []).map((entry) => ({
    refundId: entry.refundId,
    status: refundStatus(entry.refundStatus),
    amount: new Decimal(entry.amount.value),
    lineItemId: null,
  }));
  const ofLines = (order.lineItems ?? []).flatMap((line) =>
    (line.refunds ?? []).map((entry) => ({
      refundId: entry.refundId,
      status: entry.refundDate ? ("REFUNDED" as const) : ("PENDING" as const),
      amount: new Decimal(entry.amount.value),
      lineItemId: line.lineItemId,
    })),
  );
  return [...ofOrder, ...ofLines];
}

/** eBay answers PENDING to a refund it accepted and FAILED to one it could not pay; REFUNDED once the money went back. */
export function refundStatus(status: string): MarketplaceRefund["status"] {
  return status === "FAILED" ? "FAILED" : status === "REFUNDED" ? "REFUNDED" : "PENDING";
}
