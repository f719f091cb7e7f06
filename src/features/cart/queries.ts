"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { useTRPC, type MutationErrorToast } from "@/lib/trpc/client";
import type { PricedCart } from "@/server/pricing/schemas";

/** Cart polling and the texts of SPEC sections 8 and 9. */
export const CART_REFETCH_INTERVAL_MS = 30_000;
export const CART_TOAST_ID = "cart";
export const CART_UPDATE_FAILED = "Oops! Couldn't update your cart";
const cartUpdateFailed: MutationErrorToast = { title: CART_UPDATE_FAILED, id: CART_TOAST_ID };

type CartLineInput = { productId: number; quantity: number };

const savedCartInput = (couponCode: string | null) => (couponCode ? { couponCode } : undefined);

/** A customer's saved cart priced by the server, refetched on focus and every 30 s (SPEC section 9). */
export function useSavedCart(couponCode: string | null, enabled: boolean) {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.shared.cart.get.queryOptions(savedCartInput(couponCode)),
    enabled,
    refetchOnWindowFocus: true,
    refetchInterval: CART_REFETCH_INTERVAL_MS,
    placeholderData: keepPreviousData,
  });
}

/** A visitor's cart from the browser, priced by the server. */
export function useVisitorCartQuote(items: CartLineInput[], enabled: boolean) {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.shared.pricing.quote.queryOptions({ items }),
    enabled,
    placeholderData: keepPreviousData,
  });
}

/** Puts a cart the server answered with into the saved-cart cache of that coupon. */
export function useSetSavedCart() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useCallback(
    (couponCode: string | null, cart: PricedCart) => queryClient.setQueryData(trpc.shared.cart.get.queryKey(savedCartInput(couponCode)), cart),
    [queryClient, trpc],
  );
}

/** Refetches the saved cart under every coupon. */
export function useRefreshSavedCart() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: trpc.shared.cart.get.pathKey() }), [queryClient, trpc]);
}

/** Adds lines to the saved cart; `errorToast` says what a failure shows (the sign-in merge fails silently, SPEC section 8). */
export function useMergeCart(errorToast: MutationErrorToast) {
  const trpc = useTRPC();
  return useMutation({ ...trpc.shared.cart.merge.mutationOptions(), meta: { errorToast } });
}

export function useUpdateCartLine() {
  const trpc = useTRPC();
  return useMutation({ ...trpc.shared.cart.update.mutationOptions(), meta: { errorToast: cartUpdateFailed } });
}

export function useRemoveCartLine() {
  const trpc = useTRPC();
  return useMutation({ ...trpc.shared.cart.delete.mutationOptions(), meta: { errorToast: cartUpdateFailed } });
}

/** Checks a coupon; the cart shows why a code does not apply beside the field, not as a toast. */
export function useValidateCoupon() {
  const trpc = useTRPC();
  return useMutation({ ...trpc.shared.cart.discountValidate.mutationOptions(), meta: { errorToast: false } });
}
