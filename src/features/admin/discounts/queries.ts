"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc/client";
import type { DiscountListInput, DiscountTargetPreviewInput } from "@/server/discounts/admin-schemas";

/** Categories and manufacturers change rarely; the form keeps its choices for 5 minutes. */
const CHOICES_STALE_MS = 5 * 60_000;

export function useDiscounts(query: DiscountListInput) {
  const trpc = useTRPC();
  return useQuery(trpc.admin.discounts.list.queryOptions(query, { placeholderData: keepPreviousData }));
}

export function useDiscount(id: number) {
  const trpc = useTRPC();
  return useQuery(trpc.admin.discounts.get.queryOptions({ id }, { retry: false }));
}

export function useDiscountTargetChoices() {
  const trpc = useTRPC();
  return useQuery(trpc.admin.discounts.targetChoices.queryOptions(undefined, { staleTime: CHOICES_STALE_MS }));
}

/** What saving the targets would do; null while the form has no targets to ask about. */
export function useDiscountTargetPreview(input: DiscountTargetPreviewInput | null) {
  const trpc = useTRPC();
  return useQuery(
    trpc.admin.discounts.previewTargets.queryOptions(input ?? { discountType: "PRODUCT" }, { enabled: input !== null, placeholderData: keepPreviousData, retry: false, staleTime: 0 }),
  );
}

export function useDiscountCustomerSearch(search: string) {
  const trpc = useTRPC();
  const term = search.trim();
  return useQuery(trpc.admin.discounts.searchCustomers.queryOptions({ search: term }, { enabled: term.length >= 2, placeholderData: keepPreviousData }));
}

/**
 * A saved change dirties every discount query (the list, the discount's page) and the product table, whose prices
 * the storefront computes from the discounts.
 */
function useRefreshDiscounts() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () =>
    Promise.all([trpc.admin.discounts.pathKey(), trpc.admin.product.list.queryKey()].map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}

export function useCreateDiscount() {
  const trpc = useTRPC();
  const refresh = useRefreshDiscounts();
  return useMutation(trpc.admin.discounts.create.mutationOptions({ onSuccess: refresh }));
}

export function useUpdateDiscount() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = useRefreshDiscounts();
  return useMutation(
    trpc.admin.discounts.update.mutationOptions({
      onSuccess: async (saved) => {
        queryClient.setQueryData(trpc.admin.discounts.get.queryKey({ id: saved.id }), saved);
        await refresh();
      },
    }),
  );
}

export function useSetDiscountActive() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = useRefreshDiscounts();
  return useMutation(
    trpc.admin.discounts.setActive.mutationOptions({
      onSuccess: async (saved) => {
        queryClient.setQueryData(trpc.admin.discounts.get.queryKey({ id: saved.id }), saved);
        await refresh();
      },
    }),
  );
}
