"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc/client";

/** The products best matching a search term, for the results shown while typing. */
export function useProductSearch(term: string, enabled: boolean) {
  const trpc = useTRPC();
  return useQuery(trpc.shared.product.getMany.queryOptions({ search: term, orderBy: { relevance: "desc" }, page: 1 }, { enabled }));
}
