"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc/client";

export function useDashboard() {
  const trpc = useTRPC();
  return useQuery(trpc.admin.dashboard.get.queryOptions());
}
