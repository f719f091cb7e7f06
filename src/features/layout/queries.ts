"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc/client";
import type { NavbarData } from "@/server/navbar/schemas";

/** The menus, fetched once: no refetch on mount, reconnect or focus (SPEC section 7). The server hands the first copy. */
export function useNavbarData(initialData?: NavbarData) {
  const trpc = useTRPC();
  return useQuery(
    trpc.shared.navbar.getNavbarData.queryOptions(
      {},
      { initialData, staleTime: Number.POSITIVE_INFINITY, refetchOnMount: false, refetchOnReconnect: false, refetchOnWindowFocus: false },
    ),
  );
}
