import "server-only";
import { and, asc, eq, gte, inArray, lte } from "drizzle-orm";
import { env } from "@/env";
import type { Db } from "@/server/db/client";
import { sandboxMarketplaceItem, sandboxMarketplaceOffer, sandboxMarketplaceOrder } from "@/server/db/schema";
import { sandboxProbeAnswer } from "../port-status";
import type { MarketplaceItemResult, MarketplacePort } from "./port";
import {
  asItemRecord,
  asOfferRecord,
  asOrderRecord,
  challengeResponse,
  itemProblem,
  marketplaceError,
  marketplaceOrder,
  newFulfillmentId,
  newListingId,
  newOfferId,
  offerProblem,
  offerRecord,
  readNotificationBody,
  refusals,
  signatureMatches,
  storable,
  withItemQuantity,
  type Refusal,
} from "./sandbox-records";
import { orderFeesOf } from "./ebay-finances";
import { ebayAmount, inventoryItemRequest, toOrderRefunds } from "./ebay-records";
import { issueRefundRequest, sandboxGetTransactions, sandboxIssueRefund, sandboxSigner, transactionsRequest } from "./sandbox-signed";
import { marketplaceSigningKeyStore } from "./signing-key-store";
import { closeRefundedRequests, decideSandboxRequest, searchSandboxRequests } from "./sandbox-requests";
import { listingRefusal, sandboxCategoryAspects, sandboxCategoryTrees, sandboxConditionPolicies } from "./sandbox-taxonomy";
import { changeOrder, countWrite, endedListing, lockItems, lockOffers, saveItems, saveOffers, type ItemWrite, type OfferRow } from "./sandbox-rows";

/**
 * The embedded default's marketplace: eBay's Inventory and Fulfillment APIs played against the sandbox_marketplace_*
 * tables, with eBay's rules where the shop depends on them. Writes replace the whole record; one SKU is offered on
 * one marketplace; a listing shows the smaller of the item's and the offer's quantity; publishing after a withdraw
 * gives a new listing id; price and quantity updates are for published offers only; a listing is revised at most
 * 250 times a (UTC) day. Refusals come as eBay's, per item in the bulk calls and as a MarketplaceError otherwise.
 *
 * Each offer counts two things: `revisionsToday`, the revisions of its live listing (item, offer and price/quantity
 * writes while published), and `writeCount`, every write that touched it or its item (created, replaced, price or
 * quantity set), so a test can tell whether anything was sent twice. Publishing, withdrawing and sales count as
 * neither. Buyers buy on the sandbox's own pages (sandbox-store.ts), which send the shop eBay's order notification.
 */
export function createSandboxMarketplace(options: { db: Db; shopUrl: string }): MarketplacePort {
  const { db } = options;
  const signedHeaders = sandboxSigner(db, marketplaceSigningKeyStore(db));

  const refused = (sku: string, refusal: Refusal): MarketplaceItemResult => ({ sku, ok: false, statusCode: refusal.status, error: refusal.message });
  const done = (sku: string): MarketplaceItemResult => ({ sku, ok: true, statusCode: 200, error: null });

  // A bulk call is one transaction with a handful of statements, whatever it holds: a bulk update of thousands of
  // offers must not take a round trip per field.
  return {
    kind: "sandbox",
    probe: async () => sandboxProbeAnswer,

    async putItems(items) {
      const skus = [...new Set(items.filter((item) => !itemProblem(item)).map((item) => item.sku))];
      if (skus.length === 0) return items.map((item) => refused(item.sku, itemProblem(item)!));
      return db.transaction(async (tx) => {
        const now = new Date();
        const offers = new Map([...(await lockOffers(tx, inArray(sandboxMarketplaceOffer.sku, skus))).values()].map((offer) => [offer.sku, offer]));
        const changedOffers = new Map<string, OfferRow>();
        const written = new Map<string, ItemWrite>();
        const results = items.map((item) => {
          const problem = itemProblem(item);
          if (problem) return refused(item.sku, problem);
          const offer = offers.get(item.sku);
          if (offer) {
            const counted = countWrite(offer, now);
            if ("errorId" in counted) return refused(item.sku, counted);
            offers.set(item.sku, { ...offer, ...counted });
            changedOffers.set(offer.offerId, { ...offer, ...counted });
          }
          written.set(item.sku, { sku: item.sku, record: storable(inventoryItemRequest(item)), quantity: item.quantity });
          return done(item.sku);
        });
        await saveOffers(tx, [...changedOffers.values()]);
        await saveItems(tx, [...written.values()]);
        return results;
      });
    },

    async getOffer(sku) {
      const [row] = await db
        .select({ offer: sandboxMarketplaceOffer, itemQuantity: sandboxMarketplaceItem.quantity })
        .from(sandboxMarketplaceOffer)
        .leftJoin(sandboxMarketplaceItem, eq(sandboxMarketplaceItem.sku, sandboxMarketplaceOffer.sku))
        .where(eq(sandboxMarketplaceOffer.sku, sku));
      if (!row) return null;
      const { offerId, marketplaceId, status, listingId, availableQuantity, price } = row.offer;
      // A listing eBay ended is not buyable (the row is not PUBLISHED) but its offer still reads published.
      const ended = endedListing(row.offer);
      const published = status === "PUBLISHED" || ended !== null;
      return {
        offerId,
        sku,
        marketplaceId,
        status: published ? "PUBLISHED" : "UNPUBLISHED",
        listingId: published ? listingId : null,
        listingEnded: ended !== null,
        quantity: Math.min(availableQuantity, row.itemQuantity ?? 0),
        price,
      };
    },

    async createOffer(offer) {
      const problem = offerProblem(offer);
      if (problem) throw marketplaceError("createOffer", problem);
      return db.transaction(async (tx) => {
        if (!(await lockItems(tx, [offer.sku])).has(offer.sku)) throw marketplaceError("createOffer", refusals.itemNotFound(offer.sku));
        const offerId = newOfferId();
        const [created] = await tx
          .insert(sandboxMarketplaceOffer)
          .values({
            offerId,
            sku: offer.sku,
            marketplaceId: offer.marketplaceId,
            record: storable(offerRecord(offerId, offer, { status: "UNPUBLISHED" })),
            availableQuantity: offer.quantity,
            price: offer.price,
            writeCount: 1,
          })
          .onConflictDoNothing({ target: sandboxMarketplaceOffer.sku })
          .returning({ offerId: sandboxMarketplaceOffer.offerId });
        if (created) return created;
        const [existing] = await tx.select().from(sandboxMarketplaceOffer).where(eq(sandboxMarketplaceOffer.sku, offer.sku));
        if (existing && existing.marketplaceId !== offer.marketplaceId) throw marketplaceError("createOffer", refusals.otherMarketplace(offer.sku, existing.marketplaceId));
        throw marketplaceError("createOffer", refusals.offerExists(existing?.offerId ?? ""));
      });
    },

    async updateOffer(offerId, offer) {
      const problem = offerProblem(offer);
      if (problem) throw marketplaceError("updateOffer", problem);
      await db.transaction(async (tx) => {
        const stored = (await lockOffers(tx, eq(sandboxMarketplaceOffer.offerId, offerId))).get(offerId);
        if (!stored) throw marketplaceError("updateOffer", refusals.offerNotFound(offerId));
        if (stored.sku !== offer.sku) throw marketplaceError("updateOffer", refusals.skuMismatch(offerId, offer.sku));
        if (stored.marketplaceId !== offer.marketplaceId) throw marketplaceError("updateOffer", refusals.otherMarketplace(offer.sku, stored.marketplaceId));
        const counted = countWrite(stored, new Date());
        if ("errorId" in counted) throw marketplaceError("updateOffer", counted);
        const { status, listing } = asOfferRecord(stored.record);
        await saveOffers(tx, [{ ...stored, ...counted, record: storable(offerRecord(offerId, offer, { status, listing })), availableQuantity: offer.quantity, price: offer.price }]);
      });
    },

    async publishOffer(offerId) {
      return db.transaction(async (tx) => {
        const [offer] = await tx.select().from(sandboxMarketplaceOffer).where(eq(sandboxMarketplaceOffer.offerId, offerId)).for("update");
        if (!offer) throw marketplaceError("publishOffer", refusals.offerNotFound(offerId));
        // Publishing a published offer changes nothing on eBay and answers with its listing.
        if (offer.status === "PUBLISHED" && offer.listingId) return { listingId: offer.listingId };
        const item = (await lockItems(tx, [offer.sku])).get(offer.sku);
        if (!item) throw marketplaceError("publishOffer", refusals.itemNotFound(offer.sku));
        // eBay checks the category's required item specifics and conditions only here, at publish.
        const itemRecord = asItemRecord(item.record);
        const refusal = listingRefusal(asOfferRecord(offer.record).categoryId, { condition: itemRecord.condition, aspects: itemRecord.product.aspects });
        if (refusal) throw marketplaceError("publishOffer", refusal);
        const listingId = newListingId();
        const record = { ...asOfferRecord(offer.record), status: "PUBLISHED" as const, listing: { listingId, listingStatus: "ACTIVE" as const, soldQuantity: 0 } };
        await tx
          .update(sandboxMarketplaceOffer)
          .set({ status: "PUBLISHED", listingId, record: storable(record) })
          .where(eq(sandboxMarketplaceOffer.offerId, offerId));
        return { listingId };
      });
    },

    async withdrawOffer(offerId) {
      await db.transaction(async (tx) => {
        const [offer] = await tx.select().from(sandboxMarketplaceOffer).where(eq(sandboxMarketplaceOffer.offerId, offerId)).for("update");
        if (!offer) throw marketplaceError("withdrawOffer", refusals.offerNotFound(offerId));
        const ended = endedListing(offer);
        if (ended) throw marketplaceError("withdrawOffer", refusals.listingEnded(offerId, ended));
        // Withdrawing what is not listed is a no-op, so that a withdraw repeated after a lost answer is harmless.
        if (offer.status !== "PUBLISHED") return;
        const { listing: _ended, ...record } = asOfferRecord(offer.record);
        // The ended listing's id stays on the row, so its buyer page can say it has ended; publishing replaces it.
        await tx
          .update(sandboxMarketplaceOffer)
          .set({ status: "WITHDRAWN", record: storable({ ...record, status: "UNPUBLISHED" }) })
          .where(eq(sandboxMarketplaceOffer.offerId, offerId));
      });
    },

    async updatePriceQuantity(updates) {
      const offerIds = [...new Set(updates.map((update) => update.offerId))];
      if (offerIds.length === 0) return [];
      return db.transaction(async (tx) => {
        const now = new Date();
        const offers = await lockOffers(tx, inArray(sandboxMarketplaceOffer.offerId, offerIds));
        const items = await lockItems(tx, [...new Set([...offers.values()].map((offer) => offer.sku))]);
        const changedOffers = new Map<string, OfferRow>();
        const changedItems = new Map<string, ItemWrite>();
        const results = updates.map((update) => {
          if (!Number.isInteger(update.quantity) || update.quantity < 0) return refused(update.sku, refusals.invalid("availableQuantity", "The quantity is a whole number, 0 or more."));
          const offer = offers.get(update.offerId);
          if (!offer) return refused(update.sku, refusals.offerNotFound(update.offerId));
          if (offer.sku !== update.sku) return refused(update.sku, refusals.skuMismatch(update.offerId, update.sku));
          if (offer.status !== "PUBLISHED") return refused(update.sku, refusals.notPublished(update.offerId));
          const counted = countWrite(offer, now);
          if ("errorId" in counted) return refused(update.sku, counted);
          const price = update.price ?? offer.price;
          const record = storable({ ...asOfferRecord(offer.record), availableQuantity: update.quantity, pricingSummary: { price: ebayAmount(price) } });
          const changed = { ...offer, ...counted, record, availableQuantity: update.quantity, price };
          offers.set(offer.offerId, changed);
          changedOffers.set(offer.offerId, changed);
          // eBay's bulkUpdatePriceQuantity sets the SKU's quantity (shipToLocationAvailability) with the offer's.
          const item = items.get(offer.sku);
          if (item) changedItems.set(item.sku, { sku: item.sku, quantity: update.quantity, record: storable(withItemQuantity(asItemRecord(item.record), update.quantity)) });
          return done(update.sku);
        });
        await saveOffers(tx, [...changedOffers.values()]);
        await saveItems(tx, [...changedItems.values()]);
        return results;
      });
    },

    async getOrders(query) {
      const where =
        "orderIds" in query
          ? inArray(sandboxMarketplaceOrder.orderId, query.orderIds)
          : and(gte(sandboxMarketplaceOrder.lastModifiedAt, query.modifiedFrom), lte(sandboxMarketplaceOrder.lastModifiedAt, query.modifiedTo));
      if ("orderIds" in query && query.orderIds.length === 0) return [];
      const rows = await db
        .select({ record: sandboxMarketplaceOrder.record })
        .from(sandboxMarketplaceOrder)
        .where(where)
        .orderBy(asc(sandboxMarketplaceOrder.lastModifiedAt), asc(sandboxMarketplaceOrder.orderId));
      return rows.map((row) => marketplaceOrder(asOrderRecord(row.record)));
    },

    async shipOrder(shipment) {
      // eBay takes letters and digits only; the shop's numbers may carry spaces or hyphens.
      const trackingNumber = shipment.trackingNumber.replace(/[^A-Za-z0-9]/g, "");
      if (!trackingNumber) throw marketplaceError("shipOrder", refusals.invalid("trackingNumber", "A tracking number has letters and digits."));
      await changeOrder(db, "shipOrder", shipment.orderId, (order) => {
        for (const line of shipment.lines) {
          if (!order.lineItems.some((item) => item.lineItemId === line.lineItemId)) throw marketplaceError("shipOrder", refusals.lineNotInOrder(line.lineItemId));
        }
        const fulfillmentId = newFulfillmentId();
        const shippingFulfillments = [
          ...order.shippingFulfillments,
          { fulfillmentId, lineItems: shipment.lines, shippingCarrierCode: shipment.carrierCode, shipmentTrackingNumber: trackingNumber, shippedDate: shipment.shippedAt.toISOString() },
        ];
        const lineItems = order.lineItems.map((line) => {
          const shipped = shippingFulfillments.flatMap((parcel) => parcel.lineItems).filter((item) => item.lineItemId === line.lineItemId);
          const quantity = shipped.reduce((sum, item) => sum + item.quantity, 0);
          return { ...line, lineItemFulfillmentStatus: quantity >= line.quantity ? ("FULFILLED" as const) : quantity > 0 ? ("IN_PROGRESS" as const) : ("NOT_STARTED" as const) };
        });
        const allShipped = lineItems.every((line) => line.lineItemFulfillmentStatus === "FULFILLED");
        return {
          ...order,
          lineItems,
          shippingFulfillments,
          fulfillmentHrefs: [...order.fulfillmentHrefs, `https://api.ebay.com/sell/fulfillment/v1/order/${order.orderId}/shipping_fulfillment/${fulfillmentId}`],
          orderFulfillmentStatus: allShipped ? "FULFILLED" : "IN_PROGRESS",
        };
      });
    },

    async refundOrder(refund) {
      // Signed as eBay wants it, and checked by the sandbox's eBay side before anything happens (sandbox-signed.ts).
      const request = issueRefundRequest(refund);
      const outcome = await sandboxIssueRefund(db, request, await signedHeaders(request));
      await closeRefundedRequests(db, refund.orderId);
      return outcome;
    },

    async getRefunds(orderId) {
      const [row] = await db.select({ record: sandboxMarketplaceOrder.record }).from(sandboxMarketplaceOrder).where(eq(sandboxMarketplaceOrder.orderId, orderId));
      if (!row) throw marketplaceError("getRefunds", refusals.orderNotFound(orderId));
      return toOrderRefunds(asOrderRecord(row.record));
    },

    async getOrderFees(orderId) {
      const request = transactionsRequest(orderId);
      const { transactions } = await sandboxGetTransactions(db, request, await signedHeaders(request));
      return orderFeesOf(orderId, transactions);
    },

    getBuyerRequests: (query) => searchSandboxRequests(db, query),

    decideBuyerRequest: (decision) => decideSandboxRequest(db, decision),

    async readNotification(headers, body) {
      if (!signatureMatches(headers.get("x-ebay-signature"), body, env.WEBHOOK_SECRET)) return null;
      return readNotificationBody(body);
    },

    notificationChallengeResponse(challengeCode, endpointUrl) {
      return challengeResponse(challengeCode, env.WEBHOOK_SECRET, endpointUrl);
    },

    async connection() {
      return { connected: true, tokenValidUntil: null, problem: null };
    },

    async getCategoryTree(marketplaceId) {
      return sandboxCategoryTrees[marketplaceId];
    },

    async getCategoryAspects(_treeId, categoryId) {
      return sandboxCategoryAspects(categoryId);
    },

    async getConditionPolicies(_marketplaceId, categoryIds) {
      return sandboxConditionPolicies(categoryIds);
    },
  };
}
