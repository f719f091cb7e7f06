"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { useTRPC } from "@/lib/trpc/client";

export function useBucketListing(prefix: string) {
  const trpc = useTRPC();
  return useQuery(trpc.admin.bucket.list.queryOptions({ prefix }));
}

/** Refetches every folder's listing, e.g. after an upload. */
export function useRefreshBucket() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: trpc.admin.bucket.list.queryKey() }), [queryClient, trpc]);
}

export function useDeleteBucketObject() {
  const trpc = useTRPC();
  return useMutation(trpc.admin.bucket.delete.mutationOptions({ onSuccess: useRefreshBucket() }));
}
