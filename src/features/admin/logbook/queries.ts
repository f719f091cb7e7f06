"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { useTRPC } from "@/lib/trpc/client";
import type { LogbookListInput } from "@/server/logbook/schemas";
import { useRefreshSidebarCounts } from "../shell/queries";

/** A page of the logbook; the previous page stays on screen while the next loads. */
export function useLogbook(input: LogbookListInput) {
  const trpc = useTRPC();
  return useQuery(trpc.admin.logbook.list.queryOptions(input, { placeholderData: keepPreviousData }));
}

/** Opening an entry marks it read on the server. */
export function useLogbookEntry(id: number) {
  const trpc = useTRPC();
  return useQuery(trpc.admin.logbook.get.queryOptions({ id }));
}

/** Reading entries changes the bold rows in the table and the unread counts in the sidebar. */
export function useRefreshAfterReading() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refreshSidebarCounts = useRefreshSidebarCounts();
  return useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: trpc.admin.logbook.list.queryKey() });
    void refreshSidebarCounts();
  }, [queryClient, trpc, refreshSidebarCounts]);
}

/** Fails quietly, as it always has: the entries simply stay unread. */
export function useMarkAllLogbookRead() {
  const trpc = useTRPC();
  return useMutation({ ...trpc.admin.logbook.markAllRead.mutationOptions({ onSuccess: useRefreshAfterReading() }), meta: { errorToast: false } });
}
