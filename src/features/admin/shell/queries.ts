"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef } from "react";
import { useTRPC } from "@/lib/trpc/client";
import { nextProgressRead, PROGRESS_POLL_MS } from "./progress-poll";

/** SPEC section 2 and 9: sidebar counts go stale after 60 s and are not refetched on window focus. */
const SIDEBAR_STALE_MS = 60_000;

export function useSidebarCounts() {
  const trpc = useTRPC();
  return useQuery(trpc.admin.sidebar.getSidebarInformation.queryOptions(undefined, { staleTime: SIDEBAR_STALE_MS, refetchOnWindowFocus: false }));
}

/** For changes elsewhere that move a sidebar count, e.g. reading a logbook entry. */
export function useRefreshSidebarCounts() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: trpc.admin.sidebar.getSidebarInformation.queryKey() }), [queryClient, trpc]);
}

/**
 * The bulk update's progress, read again as `nextProgressRead` says; when the top bar sees a run end, the
 * marketplace page's overview (its last run) and the product table's eBay column are read again at once too.
 */
export function useBulkOfferProgress() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const query = useQuery(trpc.admin.ebay.getBulkProductEbayOffersProgress.queryOptions(undefined, { refetchInterval: (current) => nextProgressRead(current.state.data?.progress) }));
  const running = Boolean(query.data?.progress);
  const wasRunning = useRef(running);
  useEffect(() => {
    if (wasRunning.current && !running) {
      for (const queryKey of [trpc.admin.ebay.overview.queryKey(), trpc.admin.product.pathKey()]) void queryClient.invalidateQueries({ queryKey });
    }
    wasRunning.current = running;
  }, [running, queryClient, trpc]);
  return query;
}

export function useNotifications() {
  const trpc = useTRPC();
  return useQuery(trpc.admin.notification.list.queryOptions({ unreadOnly: false, limit: 15 }, { refetchInterval: PROGRESS_POLL_MS }));
}

function useRefreshNotifications() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: trpc.admin.notification.list.queryKey() });
}

/** Marking read fails quietly: the bell simply keeps the notification unread. */
export function useMarkNotificationRead() {
  const trpc = useTRPC();
  return useMutation({ ...trpc.admin.notification.markRead.mutationOptions({ onSuccess: useRefreshNotifications() }), meta: { errorToast: false } });
}

export function useMarkAllNotificationsRead() {
  const trpc = useTRPC();
  return useMutation({ ...trpc.admin.notification.markAllRead.mutationOptions({ onSuccess: useRefreshNotifications() }), meta: { errorToast: false } });
}
