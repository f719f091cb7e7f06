"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc/client";

/** The integrations as configured: they change only with a restart, so the page reads them once per visit. */
export function useIntegrations() {
  const trpc = useTRPC();
  return useQuery(trpc.admin.integrations.get.queryOptions(undefined, { staleTime: 60_000 }));
}

/** One Test connection; a refusal (too many tests) comes up as the usual error toast. */
export function useTestConnection() {
  const trpc = useTRPC();
  return useMutation(trpc.admin.integrations.testConnection.mutationOptions());
}
