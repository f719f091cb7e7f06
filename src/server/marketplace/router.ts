import { oneProductInput } from "@/server/catalog/admin-schemas";
import { getMarketplace } from "@/server/integrations/marketplace/marketplace";
import { shopRefundPorts } from "@/server/refunds/refund-payout";
import { adminProcedure, createTRPCRouter } from "@/server/trpc";
import { getBulkOfferProgress } from "./bulk-progress";
import { cancelBulkUpdate, startBulkUpdate } from "./bulk-update";
import { readChannelSettings } from "./channel-settings";
import { saveEbaySettings } from "./ebay-settings";
import { listOffers, publishOffers, republishOffers, reviseOffers, withdrawOffers } from "./offers";
import { getMarketplaceOverview } from "./overview";
import { requestQuantityPushNow } from "./quantity-push";
import { findQuantityMismatches } from "./reconciliation";
import { decideRequest, receiveReturn, refundReturn } from "./returns-actions";
import { decideRequestInput, oneRequestInput, orderRequestsInput } from "./returns-schemas";
import { pollOrdersAndRequests } from "./returns-import";
import { orderRequests } from "./returns-view";
import { bulkUpdateInput, channelSettingsInput, offerListInput, offerSelectionInput, reconciliationInput } from "./schemas";

/**
 * The marketplace in the back office (admin.ebay.*): the offers table and its actions on /admin/ebay/manage-ads, the
 * connection, order import, pushes and reconciliation on /admin/ebay, and the bulk update whose progress the top bar
 * polls (SPEC section 7's getBulkProductEbayOffersProgress).
 */
export const ebayRouter = createTRPCRouter({
  getBulkProductEbayOffersProgress: adminProcedure.query(({ ctx }) => getBulkOfferProgress(ctx.db)),
  offers: adminProcedure.input(offerListInput).query(({ ctx, input }) => listOffers(ctx.db, input)),
  publish: adminProcedure.input(offerSelectionInput).mutation(({ ctx, input }) => publishOffers(ctx.db, getMarketplace(), input.productIds, { userId: ctx.session.user.id })),
  revise: adminProcedure.input(offerSelectionInput).mutation(({ ctx, input }) => reviseOffers(ctx.db, getMarketplace(), input.productIds, { userId: ctx.session.user.id })),
  withdraw: adminProcedure.input(offerSelectionInput).mutation(({ ctx, input }) => withdrawOffers(ctx.db, getMarketplace(), input.productIds, { userId: ctx.session.user.id })),
  republish: adminProcedure.input(offerSelectionInput).mutation(({ ctx, input }) => republishOffers(ctx.db, getMarketplace(), input.productIds, { userId: ctx.session.user.id })),
  overview: adminProcedure.query(({ ctx }) => getMarketplaceOverview(ctx.db, getMarketplace())),
  /** Orders, then buyers' returns and cancellations. */
  pollOrdersNow: adminProcedure.mutation(({ ctx }) => pollOrdersAndRequests(ctx.db, getMarketplace())),
  /** Pushes a product's quantity again: the retry of a failed push, and the reconciliation view's fix. */
  pushQuantity: adminProcedure.input(oneProductInput).mutation(({ ctx, input }) => requestQuantityPushNow(ctx.db, input.productId)),
  reconciliation: adminProcedure.input(reconciliationInput).query(({ ctx, input }) => findQuantityMismatches(ctx.db, getMarketplace(), input)),
  startBulkUpdate: adminProcedure.input(bulkUpdateInput).mutation(({ ctx, input }) => startBulkUpdate(ctx.db, input, { userId: ctx.session.user.id })),
  cancelBulkUpdate: adminProcedure.mutation(({ ctx }) => cancelBulkUpdate(ctx.db, { userId: ctx.session.user.id })),
  /** Buyers' returns and cancellations from eBay, on the order page. */
  requests: createTRPCRouter({
    forOrder: adminProcedure.input(orderRequestsInput).query(({ ctx, input }) => orderRequests(ctx.db, input.orderNumber)),
    decide: adminProcedure.input(decideRequestInput).mutation(({ ctx, input }) => decideRequest(ctx.db, input, { userId: ctx.session.user.id }, requestPorts())),
    receive: adminProcedure.input(oneRequestInput).mutation(({ ctx, input }) => receiveReturn(ctx.db, input, { userId: ctx.session.user.id })),
    refund: adminProcedure.input(oneRequestInput).mutation(({ ctx, input }) => refundReturn(ctx.db, input, { userId: ctx.session.user.id }, requestPorts())),
  }),
  /** The shop-wide eBay settings: the markup on list prices, and whether a listing ends at 0. */
  settings: adminProcedure.query(({ ctx }) => readChannelSettings(ctx.db)),
  saveSettings: adminProcedure.input(channelSettingsInput).mutation(({ ctx, input }) => saveEbaySettings(ctx.db, input, ctx.session.user.id)),
});

const requestPorts = () => ({ marketplace: getMarketplace(), refunds: shopRefundPorts() });
