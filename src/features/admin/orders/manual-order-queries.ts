"use client";

import { keepPreviousData, useMutation, useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc/client";
import type { ManualOrderQuoteInput } from "@/server/orders/manual-order-schemas";
import { useRefreshOrders } from "./queries";

/** Countries and their regions change rarely; the form keeps them for 10 minutes. */
const COUNTRIES_STALE_MS = 10 * 60_000;

/** The preview waits for a pause in typing, a little shorter than a search's, so it follows the form closely. */
export const QUOTE_PAUSE_MS = 250;

/** The countries the shop ships to, with their states or provinces: the checkout's list. */
export function useShippingCountries() {
  const trpc = useTRPC();
  return useQuery(trpc.shared.checkout.countries.queryOptions(undefined, { staleTime: COUNTRIES_STALE_MS }));
}

export function useCustomerSearch(search: string) {
  const trpc = useTRPC();
  const term = search.trim();
  return useQuery(trpc.admin.manualOrder.searchCustomers.queryOptions({ search: term }, { enabled: term.length >= 2, placeholderData: keepPreviousData }));
}

export function useCustomerAddresses(userId: string | null) {
  const trpc = useTRPC();
  return useQuery(trpc.admin.manualOrder.customerAddresses.queryOptions({ userId: userId ?? "" }, { enabled: userId !== null }));
}

/**
 * The server's price of the form as it stands. The previous answer stays on screen while the next loads; a refusal
 * is shown beside the totals, so it is not retried.
 */
export function useManualOrderQuote(input: ManualOrderQuoteInput | null) {
  const trpc = useTRPC();
  return useQuery(
    trpc.admin.manualOrder.quote.queryOptions(input ?? { lines: [], shippingMethod: "TNT" }, { enabled: input !== null, placeholderData: keepPreviousData, retry: false, staleTime: 0 }),
  );
}

export function useEditableOrder(orderNumber: string | null) {
  const trpc = useTRPC();
  return useQuery(trpc.admin.manualOrder.get.queryOptions({ orderNumber: orderNumber ?? "" }, { enabled: orderNumber !== null, retry: false }));
}

export function useCreateManualOrder() {
  const trpc = useTRPC();
  const refresh = useRefreshOrders();
  return useMutation(trpc.admin.manualOrder.create.mutationOptions({ onSuccess: refresh }));
}

export function useCreateCounterSale() {
  const trpc = useTRPC();
  const refresh = useRefreshOrders();
  return useMutation(trpc.admin.manualOrder.createCounterSale.mutationOptions({ onSuccess: refresh }));
}

export function useUpdateManualOrder() {
  const trpc = useTRPC();
  const refresh = useRefreshOrders();
  return useMutation(trpc.admin.manualOrder.update.mutationOptions({ onSuccess: refresh }));
}

export function useMarkManualOrderPaid() {
  const trpc = useTRPC();
  const refresh = useRefreshOrders();
  return useMutation(trpc.admin.manualOrder.markPaid.mutationOptions({ onSuccess: refresh }));
}
