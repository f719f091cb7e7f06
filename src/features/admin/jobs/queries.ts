"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc/client";

/** The queue changes by itself (jobs run, fail, get queued), so the page asks again every few seconds. */
const JOBS_POLL_MS = 5_000;

export function useJobs() {
  const trpc = useTRPC();
  return useQuery(trpc.admin.jobs.list.queryOptions(undefined, { refetchInterval: JOBS_POLL_MS }));
}

/** A retried job leaves the failed list and counts as waiting. */
export function useRetryJob() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.admin.jobs.retry.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.admin.jobs.list.queryKey() }),
    }),
  );
}
