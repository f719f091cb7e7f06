"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { useTRPC } from "@/lib/trpc/client";
import type { AdminProductListInput, ProductImage } from "@/server/catalog/admin-schemas";

/** Categories, manufacturers and countries change rarely; a form keeps its choices for 5 minutes. */
const CHOICES_STALE_MS = 5 * 60_000;

export function useProductFormChoices() {
  const trpc = useTRPC();
  return useQuery(trpc.admin.product.formChoices.queryOptions(undefined, { staleTime: CHOICES_STALE_MS }));
}

/** A page of the product table; the previous page stays on screen while the next loads. */
export function useAdminProducts(query: AdminProductListInput, enabled = true) {
  const trpc = useTRPC();
  return useQuery(trpc.admin.product.list.queryOptions(query, { enabled, placeholderData: keepPreviousData }));
}

/**
 * What a product picker found for the words typed (`ProductPicker`): the product table's search by name, 25 at most,
 * only products with stock when `inStockOnly`. It asks from two characters on; the last answer stays while the next loads.
 */
export function useProductPickerSearch(search: string, inStockOnly: boolean) {
  const trpc = useTRPC();
  const term = search.trim();
  return useQuery(
    trpc.admin.product.list.queryOptions(
      { search: term, ...(inStockOnly ? { stock: "in" as const } : {}), sort: "name", direction: "asc", pageSize: 25 },
      { enabled: term.length >= 2, placeholderData: keepPreviousData },
    ),
  );
}

export function useAdminProduct(id: number) {
  const trpc = useTRPC();
  return useQuery(trpc.admin.product.get.queryOptions({ id }));
}

/** Refetches the product table, e.g. once a new product's pictures are stored. */
export function useRefreshAdminProducts() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: trpc.admin.product.list.queryKey() }), [queryClient, trpc]);
}

export function useCreateProduct() {
  const trpc = useTRPC();
  return useMutation(trpc.admin.product.create.mutationOptions());
}

/** Saving answers with the saved product; the table refetches before the save counts as done. */
export function useUpdateProduct() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.admin.product.update.mutationOptions({
      onSuccess: (saved) => {
        queryClient.setQueryData(trpc.admin.product.get.queryKey({ id: saved.id }), saved);
        return queryClient.invalidateQueries({ queryKey: trpc.admin.product.list.queryKey() });
      },
    }),
  );
}

/**
 * Publishing or unpublishing a product: its page and the table are read again, so the badges and the channel boxes
 * show what the server now holds.
 */
function useRefreshProductThen() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useCallback(
    () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: trpc.admin.product.get.queryKey() }),
        queryClient.invalidateQueries({ queryKey: trpc.admin.product.list.queryKey() }),
      ]),
    [queryClient, trpc],
  );
}

export function usePublishProduct() {
  const trpc = useTRPC();
  return useMutation(trpc.admin.product.publish.mutationOptions({ onSuccess: useRefreshProductThen(), meta: { errorToast: { title: "Not published" } } }));
}

export function useUnpublishProduct() {
  const trpc = useTRPC();
  return useMutation(trpc.admin.product.unpublish.mutationOptions({ onSuccess: useRefreshProductThen() }));
}

/** A bulk action on the table's selection; the table (and any product page open) is read again once it is done. */
export function useBulkProducts() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = useRefreshProductThen();
  return useMutation(
    trpc.admin.product.bulk.mutationOptions({
      meta: { errorToast: { title: "Nothing was changed" } },
      onSuccess: async () => {
        await refresh();
        await queryClient.invalidateQueries({ queryKey: trpc.admin.box.list.queryKey() });
      },
    }),
  );
}

export function useProductImages(productId: number) {
  const trpc = useTRPC();
  return useQuery(trpc.admin.product.images.queryOptions({ productId }));
}

/** Every change to a product's pictures answers with the new list. */
export function useSetProductImages(productId: number) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useCallback(
    (images: ProductImage[]) => queryClient.setQueryData(trpc.admin.product.images.queryKey({ productId }), images),
    [queryClient, trpc, productId],
  );
}

export function useReorderProductImages(productId: number) {
  const trpc = useTRPC();
  const setImages = useSetProductImages(productId);
  return useMutation(trpc.admin.product.reorderImages.mutationOptions({ onSuccess: setImages }));
}

export function useDeleteProductImage(productId: number) {
  const trpc = useTRPC();
  const setImages = useSetProductImages(productId);
  return useMutation(trpc.admin.product.deleteImage.mutationOptions({ onSuccess: setImages }));
}

export function useTemplates() {
  const trpc = useTRPC();
  return useQuery(trpc.admin.template.list.queryOptions());
}

export function useTemplate(id: number | null) {
  const trpc = useTRPC();
  return useQuery(trpc.admin.template.get.queryOptions({ id: id ?? 0 }, { enabled: id !== null }));
}

/** Creating, saving or deleting a template refetches the template list before `onSuccess` runs. */
function useRefreshTemplatesThen(onSuccess?: () => Promise<void> | void) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.admin.template.list.queryKey() });
    await onSuccess?.();
  };
}

export function useCreateTemplate({ onSuccess }: { onSuccess: () => Promise<void> | void }) {
  const trpc = useTRPC();
  return useMutation(trpc.admin.template.create.mutationOptions({ onSuccess: useRefreshTemplatesThen(onSuccess) }));
}

export function useUpdateTemplate({ onSuccess }: { onSuccess: () => Promise<void> | void }) {
  const trpc = useTRPC();
  return useMutation(trpc.admin.template.update.mutationOptions({ onSuccess: useRefreshTemplatesThen(onSuccess) }));
}

export function useDeleteTemplate() {
  const trpc = useTRPC();
  return useMutation(trpc.admin.template.delete.mutationOptions({ onSuccess: useRefreshTemplatesThen() }));
}
