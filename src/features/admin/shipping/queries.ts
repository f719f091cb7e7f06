"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc/client";
import type { CountryListInput } from "@/server/shipping/costs-schemas";

export function useSurchargeBands() {
  const trpc = useTRPC();
  return useQuery(trpc.admin.shippingCosts.bands.queryOptions());
}

export function useCountryCosts(query: CountryListInput) {
  const trpc = useTRPC();
  return useQuery(trpc.admin.shippingCosts.countries.queryOptions(query, { placeholderData: keepPreviousData }));
}

export function useCountryCostsOf(code: string) {
  const trpc = useTRPC();
  return useQuery(trpc.admin.shippingCosts.country.queryOptions({ code }, { retry: false }));
}

/**
 * What a shipping cost change makes stale in this browser: the shipping cost pages themselves, and the shipping
 * this browser has priced or listed elsewhere (the manual order form's countries and quote). Checkout itself reads
 * the tables on every quote; nothing on the server needs telling.
 */
function useRefreshShippingCosts() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.admin.shippingCosts.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.shared.checkout.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.admin.manualOrder.quote.pathKey() }),
    ]);
}

export function useCreateSurchargeBand() {
  const trpc = useTRPC();
  return useMutation(trpc.admin.shippingCosts.createBand.mutationOptions({ onSuccess: useRefreshShippingCosts() }));
}

export function useSaveSurchargeBands() {
  const trpc = useTRPC();
  return useMutation(trpc.admin.shippingCosts.saveBands.mutationOptions({ onSuccess: useRefreshShippingCosts() }));
}

export function useUpdateCountryCosts() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = useRefreshShippingCosts();
  return useMutation(
    trpc.admin.shippingCosts.updateCountry.mutationOptions({
      onSuccess: (saved) => {
        queryClient.setQueryData(trpc.admin.shippingCosts.country.queryKey({ code: saved.code }), saved);
        return refresh();
      },
    }),
  );
}
