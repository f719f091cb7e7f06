"use client";

import { keepPreviousData, useMutation, useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc/client";
import type { CheckoutShippingInput } from "@/server/checkout/schemas";

/** The countries the shop ships to; they change with a deploy, not during a visit. */
export function useShippingCountries() {
  const trpc = useTRPC();
  return useQuery(trpc.shared.checkout.countries.queryOptions(undefined, { staleTime: 60 * 60_000 }));
}

/** The order as it would be placed; a refused quote (e.g. a coupon that does not apply) is not retried. */
export function useCheckoutQuote(input: CheckoutShippingInput, enabled: boolean) {
  const trpc = useTRPC();
  return useQuery({ ...trpc.shared.checkout.quote.queryOptions(input), enabled, placeholderData: keepPreviousData, retry: false });
}

export function usePlaceOrder() {
  const trpc = useTRPC();
  return useMutation({ ...trpc.shared.checkout.placeOrder.mutationOptions(), meta: { errorToast: { title: "Your order could not be placed" } } });
}
