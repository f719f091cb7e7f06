"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { useTRPC } from "@/lib/trpc/client";

/** SPEC sections 7 and 9: the bulk marketplace progress is polled every 30 seconds, and staff notifications with it. */
export const PROGRESS_POLL_MS = 30_000;

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

export function useBulkOfferProgress() {
  const trpc = useTRPC();
  return useQuery(trpc.admin.ebay.getBulkProductEbayOffersProgress.queryOptions(undefined, { refetchInterval: PROGRESS_POLL_MS }));
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
