"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc/client";
import type { OrderListInput } from "@/server/orders/admin-schemas";

const LABEL_POLL_MS = 3_000;

/** A page of the order table; the previous page stays on screen while the next loads. */
export function useAdminOrders(query: OrderListInput) {
  const trpc = useTRPC();
  return useQuery(trpc.admin.orders.list.queryOptions(query, { placeholderData: keepPreviousData }));
}

/** What one order earned (`admin.margins.order`); refreshed with the order, since refunds and labels change it. */
export function useOrderMargin(orderNumber: string) {
  const trpc = useTRPC();
  return useQuery(trpc.admin.margins.order.queryOptions({ orderNumber }, { retry: false }));
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
 * What a status change, a label or a shipment changes elsewhere: the order tables and pages (`admin.orders`) and
 * the sidebar's counts.
 */
function useRefreshOrders() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.admin.orders.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.admin.sidebar.getSidebarInformation.queryKey() }),
    ]);
}

export function useTransitionOrders() {
  const trpc = useTRPC();
  return useMutation(trpc.admin.orders.transition.mutationOptions({ onSuccess: useRefreshOrders() }));
}

export function useCreateLabels() {
  const trpc = useTRPC();
  return useMutation(trpc.admin.fulfilment.createLabels.mutationOptions({ onSuccess: useRefreshOrders() }));
}

export function useVoidLabel() {
  const trpc = useTRPC();
  return useMutation(trpc.admin.fulfilment.voidLabel.mutationOptions({ onSuccess: useRefreshOrders() }));
}

/** Gives the chosen orders their invoice numbers (`admin.fulfilment.makeInvoices`); the order pages show them after. */
export function useMakeInvoices() {
  const trpc = useTRPC();
  return useMutation(trpc.admin.fulfilment.makeInvoices.mutationOptions({ onSuccess: useRefreshOrders() }));
}

export function useMarkShipped() {
  const trpc = useTRPC();
  return useMutation(trpc.admin.fulfilment.markShipped.mutationOptions({ onSuccess: useRefreshOrders() }));
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
