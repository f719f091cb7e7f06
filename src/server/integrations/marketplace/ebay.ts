import { z } from "zod";
import { AppError } from "@/server/errors";
import { createEbayClient, read, type EbayClientOptions } from "./ebay-client";
import { financesBase, orderFeesOf, orderTransactionsQuery, transactionsPage, type EbayTransaction } from "./ebay-finances";
import { challengeResponse, notificationReader } from "./ebay-notification";
import { postOrderCalls } from "./ebay-post-order";
import {
  bulkAnswer,
  createOfferAnswer,
  inventoryItemAnswer,
  inventoryItemRequest,
  itemResults,
  marketplaceLanguages,
  marketplaceOrder,
  modifiedFilter,
  offerRequest,
  offersAnswer,
  offerState,
  orderRefunds,
  onShopMarketplace,
  ordersPage,
  priceQuantityRequest,
  publishAnswer,
  refundAnswer,
  refundRequest,
  refundStatus,
  shippingFulfillmentRequest,
  toOrderRefunds,
  type EbayPolicies,
} from "./ebay-records";
import {
  aspectsAnswer,
  conditionPoliciesAnswer,
  conditionPolicyCategoriesPerCall,
  defaultTreeAnswer,
  metadataPath,
  subtreeAnswer,
  taxonomyPath,
  toCategoryAspects,
  toConditionPolicies,
} from "./ebay-taxonomy";
import { MarketplaceError, type MarketplaceConditionPolicy, type MarketplaceItem, type MarketplaceItemResult, type MarketplaceOfferRecord, type MarketplaceOrder, type MarketplacePort, type MarketplaceRefund } from "./port";

/**
 * The live eBay marketplace, on eBay's Inventory, Fulfillment and Notification REST APIs through our own small
 * client (PROVIDERS.md section 5): `ebay-api` returns `any` everywhere and its automatic token refresh has open bug
 * reports, while the handful of calls the shop makes are easy to type at the port's edge.
 */

export type { EbayTokenStore } from "./ebay-client";

/** What the client takes (the seller's keys, the token store), and the seller's settings its listings use. */
export type EbayMarketplaceOptions = Omit<EbayClientOptions, "now"> & {
  policies: EbayPolicies;
  merchantLocationKey: string;
  notificationVerificationToken: string | null;
  /** The clock tokens and cached keys are timed by; the real one unless a test sets it. */
  now?: () => Date;
};

/** eBay's most per bulk call, for both inventory items and prices and quantities. */
const bulkSize = 25;
/** eBay's most orders per page of getOrders. */
const ordersPageSize = 200;
/** eBay's most order ids per getOrders call. */
const orderIdsPerCall = 50;

const inventory = "/sell/inventory/v1";
/** getPrivileges' answer (Account API); `sellingLimit` is left out for a seller without a monthly cap. */
const sellingPrivileges = z.object({
  sellerRegistrationCompleted: z.boolean().optional(),
  sellingLimit: z.object({ amount: z.object({ value: z.coerce.string(), currency: z.string() }).optional(), quantity: z.number().optional() }).optional(),
});
const fulfillment = "/sell/fulfillment/v1";

function chunks<T>(list: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < list.length; start += size) result.push(list.slice(start, start + size));
  return result;
}

export function createEbayMarketplace(options: EbayMarketplaceOptions): MarketplacePort {
  const now = options.now ?? (() => new Date());
  const client = createEbayClient({ ...options, now });
  const readNotification = notificationReader(client, now);
  const { getBuyerRequests, decideBuyerRequest } = postOrderCalls(client);
  const offerPath = (offerId: string) => `${inventory}/offer/${encodeURIComponent(offerId)}`;
  const orderPath = (orderId: string) => `${fulfillment}/order/${encodeURIComponent(orderId)}`;
  const languageHeaders = (marketplaceId: MarketplaceItem["marketplaceId"]) => ({ "content-language": marketplaceLanguages[marketplaceId], "x-ebay-c-marketplace-id": marketplaceId });

  /** All pages of one getOrders query, following eBay's `next` until it stops. */
  async function ordersOf(query: URLSearchParams): Promise<MarketplaceOrder[]> {
    const orders: MarketplaceOrder[] = [];
    let offset = 0;
    for (;;) {
      const paged = query.has("orderIds") ? query : new URLSearchParams({ ...Object.fromEntries(query), limit: String(ordersPageSize), offset: String(offset) });
      const body = await client.call("getOrders", { method: "GET", path: `${fulfillment}/order?${paged}` });
      const page = read("getOrders", ordersPage, body);
      orders.push(...page.orders.map(marketplaceOrder));
      offset += page.orders.length;
      if (!page.next || page.orders.length === 0 || query.has("orderIds")) return orders;
    }
  }

  return {
    kind: "live",

    /**
     * A user token renewed from the refresh token now (not one renewed earlier and stored), then
     * `GET /sell/account/v1/privilege` (getPrivileges) with it: a read that answers for all three credentials and the
     * sell scopes at once, and says whether the account may sell.
     */
    async probe() {
      await client.renewUserAccessToken();
      const privileges = read("getPrivileges", sellingPrivileges, await client.call("getPrivileges", { method: "GET", path: "/sell/account/v1/privilege" }));
      if (privileges.sellerRegistrationCompleted === false) return "eBay accepted the shop's token, but the seller's registration is not complete";
      const limit = privileges.sellingLimit;
      const cap = limit?.amount ? `; monthly selling limit ${limit.amount.value} ${limit.amount.currency}${limit.quantity === undefined ? "" : `, ${limit.quantity} items`}` : "";
      return `eBay accepted the shop's token${cap}`;
    },

    async putItems(items) {
      // One Content-Language per call, so each marketplace's items go in calls of their own.
      const results = new Map<MarketplaceItem, MarketplaceItemResult>();
      for (const marketplaceId of new Set(items.map((item) => item.marketplaceId))) {
        for (const chunk of chunks(items.filter((item) => item.marketplaceId === marketplaceId), bulkSize)) {
          const body = await client.call("bulkCreateOrReplaceInventoryItem", {
            method: "POST",
            path: `${inventory}/bulk_create_or_replace_inventory_item`,
            headers: languageHeaders(marketplaceId),
            body: { requests: chunk.map(inventoryItemRequest) },
          });
          const { responses } = read("bulkCreateOrReplaceInventoryItem", bulkAnswer, body);
          itemResults(chunk, responses).forEach((result, index) => results.set(chunk[index]!, result));
        }
      }
      return items.map((item) => results.get(item)!);
    },

    async getOffer(sku) {
      let offers;
      let itemBody: unknown;
      try {
        const [offered, item] = await Promise.all([
          client.call("getOffers", { method: "GET", path: `${inventory}/offer?${new URLSearchParams({ sku })}` }),
          client.call("getInventoryItem", { method: "GET", path: `${inventory}/inventory_item/${encodeURIComponent(sku)}` }),
        ]);
        offers = read("getOffers", offersAnswer, offered).offers.filter(onShopMarketplace);
        itemBody = item;
      } catch (error) {
        // eBay answers 404 both for a SKU it does not know and for one without offers.
        if (error instanceof MarketplaceError && error.status === 404) return null;
        throw error;
      }
      // One marketplace per SKU: a second offer would be left over from before; the published one is what sells.
      const offer = offers.find((candidate) => candidate.status === "PUBLISHED") ?? offers[0];
      if (!offer) return null;
      const itemQuantity = read("getInventoryItem", inventoryItemAnswer, itemBody).availability?.shipToLocationAvailability?.quantity ?? 0;
      return offerState(offer, itemQuantity);
    },

    async createOffer(offer: MarketplaceOfferRecord) {
      const body = await client.call("createOffer", {
        method: "POST",
        path: `${inventory}/offer`,
        headers: languageHeaders(offer.marketplaceId),
        body: offerRequest(offer, options.policies, options.merchantLocationKey),
      });
      const { offerId } = read("createOffer", createOfferAnswer, body);
      return { offerId };
    },

    async updateOffer(offerId, offer) {
      await client.call("updateOffer", { method: "PUT", path: offerPath(offerId), headers: languageHeaders(offer.marketplaceId), body: offerRequest(offer, options.policies, options.merchantLocationKey) });
    },

    async publishOffer(offerId) {
      // An empty POST was refused with 411 in eBay's sandbox; `{}` is accepted.
      const body = await client.call("publishOffer", { method: "POST", path: `${offerPath(offerId)}/publish`, body: {} });
      const { listingId } = read("publishOffer", publishAnswer, body);
      return { listingId };
    },

    async withdrawOffer(offerId) {
      await client.call("withdrawOffer", { method: "POST", path: `${offerPath(offerId)}/withdraw`, body: {} });
    },

    async updatePriceQuantity(updates) {
      const results: MarketplaceItemResult[] = [];
      for (const chunk of chunks(updates, bulkSize)) {
        const body = await client.call("bulkUpdatePriceQuantity", { method: "POST", path: `${inventory}/bulk_update_price_quantity`, body: { requests: chunk.map(priceQuantityRequest) } });
        results.push(...itemResults(chunk, read("bulkUpdatePriceQuantity", bulkAnswer, body).responses));
      }
      return results;
    },

    async getOrders(query) {
      if ("modifiedFrom" in query) return ordersOf(new URLSearchParams({ filter: modifiedFilter(query.modifiedFrom, query.modifiedTo) }));
      const orders: MarketplaceOrder[] = [];
      for (const ids of chunks(query.orderIds, orderIdsPerCall)) orders.push(...(await ordersOf(new URLSearchParams({ orderIds: ids.join(",") }))));
      return orders;
    },

    async shipOrder(shipment) {
      await client.call("createShippingFulfillment", { method: "POST", path: `${orderPath(shipment.orderId)}/shipping_fulfillment`, body: shippingFulfillmentRequest(shipment) });
    },

    async refundOrder(refund): Promise<MarketplaceRefund> {
      const body = await client.call("issueRefund", { method: "POST", path: `${orderPath(refund.orderId)}/issue_refund`, body: refundRequest(refund) });
      const answer = read("issueRefund", refundAnswer, body);
      return { refundId: answer.refundId, status: refundStatus(answer.refundStatus) };
    },

    async getRefunds(orderId) {
      const body = await client.call("getOrder", { method: "GET", path: orderPath(orderId) });
      return toOrderRefunds(read("getOrder", orderRefunds, body));
    },

    async getOrderFees(orderId) {
      const transactions: EbayTransaction[] = [];
      for (let offset = 0; ; ) {
        const body = await client.call("getTransactions", { method: "GET", host: "apiz", path: `${financesBase}/transaction?${orderTransactionsQuery(orderId, offset)}` });
        const page = read("getTransactions", transactionsPage, body);
        transactions.push(...page.transactions);
        offset += page.transactions.length;
        if (!page.next || page.transactions.length === 0) break;
      }
      return orderFeesOf(orderId, transactions);
    },
    getBuyerRequests,
    decideBuyerRequest,

    readNotification,

    notificationChallengeResponse(challengeCode, endpointUrl) {
      if (!options.notificationVerificationToken) {
        throw new AppError("PRECONDITION_FAILED", "eBay checks the notification endpoint with EBAY_NOTIFICATION_VERIFICATION_TOKEN, which is not set.");
      }
      return challengeResponse(challengeCode, options.notificationVerificationToken, endpointUrl);
    },

    async connection() {
      try {
        const token = await client.userAccessToken();
        return { connected: true, tokenValidUntil: token.expiresAt, problem: null };
      } catch (error) {
        const stored = await options.tokenStore.read().catch(() => null);
        return { connected: false, tokenValidUntil: stored?.expiresAt ?? null, problem: error instanceof Error ? error.message : String(error) };
      }
    },

    async getCategoryTree(marketplaceId) {
      const body = await client.call("getDefaultCategoryTreeId", { method: "GET", path: `${taxonomyPath}/get_default_category_tree_id?${new URLSearchParams({ marketplace_id: marketplaceId })}` }, "application");
      const answer = read("getDefaultCategoryTreeId", defaultTreeAnswer, body);
      return { treeId: answer.categoryTreeId, version: answer.categoryTreeVersion };
    },

    async getCategoryAspects(treeId, categoryId) {
      const tree = `${taxonomyPath}/category_tree/${encodeURIComponent(treeId)}`;
      const query = new URLSearchParams({ category_id: categoryId });
      const [aspects, subtree] = await Promise.all([
        client.call("getItemAspectsForCategory", { method: "GET", path: `${tree}/get_item_aspects_for_category?${query}` }, "application"),
        client.call("getCategorySubtree", { method: "GET", path: `${tree}/get_category_subtree?${query}` }, "application"),
      ]);
      return toCategoryAspects(read("getItemAspectsForCategory", aspectsAnswer, aspects), read("getCategorySubtree", subtreeAnswer, subtree));
    },

    async getConditionPolicies(marketplaceId, categoryIds) {
      const policies: MarketplaceConditionPolicy[] = [];
      for (const ids of chunks(categoryIds, conditionPolicyCategoriesPerCall)) {
        const filter = `categoryIds:{${ids.join("|")}}`;
        const path = `${metadataPath}/marketplace/${encodeURIComponent(marketplaceId)}/get_item_condition_policies?${new URLSearchParams({ filter })}`;
        // eBay answers 204 without a body when no category of the filter has a policy: `{}` here.
        policies.push(...toConditionPolicies(read("getItemConditionPolicies", conditionPoliciesAnswer, await client.call("getItemConditionPolicies", { method: "GET", path }, "application"))));
      }
      return policies;
    },
  };
}
