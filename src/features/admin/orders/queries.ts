"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryKey } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc/client";
import type { OrderListInput } from "@/server/orders/admin-schemas";

const LABEL_POLL_MS = 3_000;

/** A page of the order table; the previous page stays on screen while the next loads. */
export function useAdminOrders(query: OrderListInput) {
  const trpc = useTRPC();
  return useQuery(trpc.admin.orders.list.queryOptions(query, { placeholderData: keepPreviousData }));
}

/**
 * One order's page. A label is bought by a job, so while one is awaited the page looks again every few seconds,
 * until the order has its tracking number.
 */
export function useAdminOrder(orderNumber: string, { awaitingLabel = false }: { awaitingLabel?: boolean } = {}) {
  const trpc = useTRPC();
  return useQuery(
    trpc.admin.orders.get.queryOptions(
      { orderNumber },
      { retry: false, refetchInterval: (query) => (awaitingLabel && !query.state.data?.shipping.trackingNumber ? LABEL_POLL_MS : false) },
    ),
  );
}

/**
 * What a change to orders dirties elsewhere: the sidebar's counts, the order lists and the orders' own pages (the
 * order admin's queries are matched by their path prefix, `admin.orders`), and what `more` names.
 */
export function useRefreshOrders(more: readonly QueryKey[] = []) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () =>
    Promise.all(
      [trpc.admin.sidebar.getSidebarInformation.queryKey(), trpc.admin.manualOrder.get.queryKey(), [["admin", "orders"]], ...more].map((queryKey) =>
        queryClient.invalidateQueries({ queryKey }),
      ),
    );
}

export function useTransitionOrders() {
  const trpc = useTRPC();
  return useMutation(trpc.admin.orders.transition.mutationOptions({ onSuccess: useRefreshOrders() }));
}

/**
 * Cancels an order from its page (`admin.refunds.cancelOrder`), paying a paid order's money back with it. What it
 * changes elsewhere, as a refund does: the order's pages and tables, its refunds and margin, the sidebar's counts and
 * the stock the product pages show. Refreshed also when it is refused, since a refund the provider refused is stored.
 */
export function useCancelOrder() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = () =>
    Promise.all(
      [trpc.admin.orders.pathKey(), trpc.admin.refunds.pathKey(), trpc.admin.margins.pathKey(), trpc.admin.sidebar.getSidebarInformation.queryKey(), trpc.admin.product.pathKey(), trpc.admin.stock.pathKey()].map(
        (queryKey) => queryClient.invalidateQueries({ queryKey }),
      ),
    );
  return useMutation(trpc.admin.refunds.cancelOrder.mutationOptions({ onSettled: refresh }));
}
