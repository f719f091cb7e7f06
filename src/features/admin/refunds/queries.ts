"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { useTRPC } from "@/lib/trpc/client";
import type { RefundView } from "@/server/refunds/schemas";

/**
 * What staff may still give back on an order (`admin.refunds.proposal`), with the refunds so far. A refund the
 * provider has not confirmed yet is PENDING; the page looks again now and then until none is.
 */
export function useRefundProposal(orderNumber: string) {
  const trpc = useTRPC();
  return useQuery(
    trpc.admin.refunds.proposal.queryOptions(
      { orderNumber },
      { retry: false, refetchInterval: (query) => (query.state.data?.refunds.some((refund) => refund.status === "PENDING") ? PENDING_POLL_MS : false) },
    ),
  );
}

/** How often the page looks again while a provider has a refund it has not confirmed. */
const PENDING_POLL_MS = 10_000;

/**
 * What a refund changes elsewhere: the proposal and its list (`admin.refunds`), the order's page, tables and
 * timeline (`admin.orders`), its margin (`admin.margins`), the sidebar's counts, and, for pieces put back, the stock the product pages show.
 * Only the queries on screen refetch; the others are just marked stale.
 */
function useRefreshAfterRefund() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useCallback(
    () =>
      Promise.all(
        [trpc.admin.refunds.pathKey(), trpc.admin.orders.pathKey(), trpc.admin.margins.pathKey(), trpc.admin.sidebar.getSidebarInformation.queryKey(), trpc.admin.product.pathKey(), trpc.admin.stock.pathKey()].map(
          (queryKey) => queryClient.invalidateQueries({ queryKey }),
        ),
      ),
    [queryClient, trpc],
  );
}

/**
 * Gives some of an order's money back. The form shows a refusal itself, so the cache's error toast stays quiet;
 * the proposal and the order are read again either way, since a refused provider still leaves a FAILED refund.
 */
export function useCreateRefund() {
  const trpc = useTRPC();
  return useMutation({ ...trpc.admin.refunds.create.mutationOptions({ onSettled: useRefreshAfterRefund() }), meta: { errorToast: false } });
}

/** Asks the provider again for a FAILED refund. */
export function useRetryRefund() {
  const trpc = useTRPC();
  return useMutation({ ...trpc.admin.refunds.retry.mutationOptions({ onSettled: useRefreshAfterRefund() }), meta: { errorToast: { title: "The refund failed again" } } });
}

/**
 * The refund a create or retry answered with: the procedures may answer with the refund or with the order's refunds,
 * so this takes the one named, or the newest.
 */
export function refundOf(result: unknown, refundId?: number): RefundView | null {
  const views = (Array.isArray(result) ? result : [result]).filter(
    (value): value is RefundView => typeof value === "object" && value !== null && "status" in value && "amount" in value && "id" in value,
  );
  if (refundId !== undefined) return views.find((view) => view.id === refundId) ?? null;
  return views.reduce<RefundView | null>((newest, view) => (!newest || view.id > newest.id ? view : newest), null);
}
