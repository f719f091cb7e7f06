"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc/client";

export function useDashboard() {
  const trpc = useTRPC();
  return useQuery(trpc.admin.dashboard.get.queryOptions());
}

/** Margin per month and channel; the table keeps the months on screen while another span loads. */
export function useDashboardMargins(months: number) {
  const trpc = useTRPC();
  return useQuery(trpc.admin.dashboard.margins.queryOptions({ months }, { placeholderData: keepPreviousData }));
}
