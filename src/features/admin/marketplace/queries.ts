"use client";

import { keepPreviousData, useMutation, useQueries, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { useTRPC } from "@/lib/trpc/client";
import type { OfferListInput } from "@/server/marketplace/schemas";
import { PROGRESS_POLL_MS } from "../shell/progress-poll";

/** A page of the offers table; the previous page stays on screen while the next loads. */
export function useEbayOffers(query: OfferListInput) {
  const trpc = useTRPC();
  return useQuery(trpc.admin.ebay.offers.queryOptions(query, { placeholderData: keepPreviousData }));
}

/**
 * The marketplace's state (connection, order import, pushes, the last bulk run). Pushes and imports move on their
 * own, so the page looks again at the pace of the top bar's progress.
 */
export function useMarketplaceOverview() {
  const trpc = useTRPC();
  return useQuery(trpc.admin.ebay.overview.queryOptions(undefined, { refetchInterval: PROGRESS_POLL_MS }));
}

/**
 * The reconciliation view: one query per page of published offers compared, `afterIds` being where each page
 * starts. Each page asks the marketplace for every offer on it, so a page is compared once and kept until staff ask
 * again (`useResetReconciliation`), not refetched on focus or remount.
 */
export function useReconciliationPages(afterIds: readonly number[]) {
  const trpc = useTRPC();
  return useQueries({
    queries: afterIds.map((afterId) =>
      trpc.admin.ebay.reconciliation.queryOptions({ afterId }, { staleTime: Number.POSITIVE_INFINITY, refetchOnWindowFocus: false, retry: false }),
    ),
  });
}

/** Forgets the compared pages after the first, so that comparing again starts from the first page alone. */
export function useForgetLaterReconciliationPages() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useCallback(
    () =>
      queryClient.removeQueries({
        queryKey: trpc.admin.ebay.reconciliation.pathKey(),
        predicate: (query) => (query.queryKey[1] as { input?: { afterId?: number } } | undefined)?.input?.afterId !== 0,
      }),
    [queryClient, trpc],
  );
}

/**
 * What an offer action changes: the offers table and the overview (`admin.ebay`, but not the compared pages, which
 * stay until staff compare again), the product table's eBay column, and the bulk progress in the top bar.
 */
function useRefreshMarketplace() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useCallback(
    () =>
      Promise.all(
        [trpc.admin.ebay.offers.pathKey(), trpc.admin.ebay.overview.queryKey(), trpc.admin.ebay.getBulkProductEbayOffersProgress.queryKey(), trpc.admin.product.pathKey()].map(
          (queryKey) => queryClient.invalidateQueries({ queryKey }),
        ),
      ),
    [queryClient, trpc],
  );
}

/** The offers table's four actions on a selection; each answers what happened to every product picked. */
export function useOfferActions() {
  const trpc = useTRPC();
  const onSuccess = useRefreshMarketplace();
  const errorToast = { title: "The marketplace action failed" };
  return {
    publish: useMutation({ ...trpc.admin.ebay.publish.mutationOptions({ onSuccess }), meta: { errorToast } }),
    revise: useMutation({ ...trpc.admin.ebay.revise.mutationOptions({ onSuccess }), meta: { errorToast } }),
    withdraw: useMutation({ ...trpc.admin.ebay.withdraw.mutationOptions({ onSuccess }), meta: { errorToast } }),
    republish: useMutation({ ...trpc.admin.ebay.republish.mutationOptions({ onSuccess }), meta: { errorToast } }),
  };
}

/** A push of one product's quantity: the retry of a failed offer, and the reconciliation's fix. */
export function usePushQuantity() {
  const trpc = useTRPC();
  return useMutation(trpc.admin.ebay.pushQuantity.mutationOptions({ onSuccess: useRefreshMarketplace() }));
}

/** Looks for marketplace orders now; what it imports shows in the order admin and the sidebar's counts. */
export function usePollOrdersNow() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation({
    ...trpc.admin.ebay.pollOrdersNow.mutationOptions({
      onSuccess: () =>
        Promise.all(
          [trpc.admin.ebay.overview.queryKey(), trpc.admin.orders.pathKey(), trpc.admin.sidebar.getSidebarInformation.queryKey(), trpc.admin.product.pathKey()].map((queryKey) =>
            queryClient.invalidateQueries({ queryKey }),
          ),
        ),
    }),
    meta: { errorToast: { title: "Checking for orders failed" } },
  });
}

/** Starting or cancelling the bulk update also moves the top bar's progress, which otherwise waits 30 s to look. */
export function useStartBulkUpdate() {
  const trpc = useTRPC();
  return useMutation(trpc.admin.ebay.startBulkUpdate.mutationOptions({ onSuccess: useRefreshMarketplace() }));
}

export function useCancelBulkUpdate() {
  const trpc = useTRPC();
  return useMutation(trpc.admin.ebay.cancelBulkUpdate.mutationOptions({ onSuccess: useRefreshMarketplace() }));
}

/** The shop-wide eBay settings: the markup on list prices, and what a listing does at 0. */
export function useChannelSettings() {
  const trpc = useTRPC();
  return useQuery(trpc.admin.ebay.settings.queryOptions());
}

/** Saving them moves every markup-priced eBay price (a bulk price update) and the offers table's eBay prices. */
export function useSaveChannelSettings() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = useRefreshMarketplace();
  return useMutation({
    ...trpc.admin.ebay.saveSettings.mutationOptions({
      onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: trpc.admin.ebay.settings.queryKey() }), refresh()]),
    }),
    meta: { errorToast: { title: "The eBay settings were not saved" } },
  });
}
