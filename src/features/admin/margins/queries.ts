"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc/client";

/** What one order earned (`admin.margins.order`); refreshed with the order, since refunds and labels change it. */
export function useOrderMargin(orderNumber: string) {
  const trpc = useTRPC();
  return useQuery(trpc.admin.margins.order.queryOptions({ orderNumber }, { retry: false }));
}
