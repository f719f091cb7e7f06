"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { useTRPC } from "@/lib/trpc/client";
import type { BoxStatus, RestockStatus } from "@/lib/enums";
import type { BoxDetail, ExchangeRateInfo } from "@/server/stock/schemas";

export function useBoxes(statuses: BoxStatus[]) {
  const trpc = useTRPC();
  return useQuery(trpc.admin.box.list.queryOptions({ statuses }));
}

export function useBox(boxId: number) {
  const trpc = useTRPC();
  return useQuery(trpc.admin.box.get.queryOptions({ boxId }));
}

export function useCreateBox({ onSuccess }: { onSuccess: (box: { id: number }) => void }) {
  const trpc = useTRPC();
  return useMutation(trpc.admin.box.create.mutationOptions({ onSuccess }));
}

/** A change to a box shows in its page (from the box the server answered with, if any) and in the box lists. */
function useRefreshBox(boxId: number) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useCallback(
    (box?: BoxDetail) => {
      if (box) queryClient.setQueryData(trpc.admin.box.get.queryKey({ boxId }), box);
      else void queryClient.invalidateQueries({ queryKey: trpc.admin.box.get.queryKey({ boxId }) });
      void queryClient.invalidateQueries({ queryKey: trpc.admin.box.list.queryKey() });
    },
    [queryClient, trpc, boxId],
  );
}

export function useShipBox(boxId: number, { onSuccess }: { onSuccess: (box: BoxDetail) => void }) {
  const trpc = useTRPC();
  const refreshBox = useRefreshBox(boxId);
  return useMutation(
    trpc.admin.box.ship.mutationOptions({
      onSuccess: (updated) => {
        refreshBox(updated);
        onSuccess(updated);
      },
    }),
  );
}

/** Exploding books the box's pieces into stock: products and stock figures refetch too. */
export function useExplodeBox(boxId: number, { onSuccess }: { onSuccess: (box: BoxDetail) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refreshBox = useRefreshBox(boxId);
  return useMutation(
    trpc.admin.box.explode.mutationOptions({
      onSuccess: (updated) => {
        refreshBox(updated);
        void queryClient.invalidateQueries({ queryKey: trpc.admin.product.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.admin.stock.pathKey() });
        onSuccess(updated);
      },
    }),
  );
}

/**
 * A purchase added to a box, from the box's page or the restock manager: the box's page and lists refetch, and so do
 * the restock lists, whose "coming" pieces it changes.
 */
export function useAddPurchase({ onSuccess }: { onSuccess: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.admin.box.addPurchaseRecord.mutationOptions({
      onSuccess: () => {
        void queryClient.invalidateQueries({ queryKey: trpc.admin.box.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.admin.restock.pathKey() });
        onSuccess();
      },
    }),
  );
}

export function useRemovePurchase(boxId: number) {
  const trpc = useTRPC();
  const refreshBox = useRefreshBox(boxId);
  return useMutation(trpc.admin.box.removePurchaseRecord.mutationOptions({ onSuccess: () => refreshBox() }));
}

export function useExchangeRate() {
  const trpc = useTRPC();
  return useQuery(trpc.admin.stock.exchangeRate.queryOptions());
}

export function useRefreshExchangeRate({ onSuccess }: { onSuccess: (info: ExchangeRateInfo) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.admin.stock.refreshExchangeRate.mutationOptions({
      onSuccess: (info) => {
        queryClient.setQueryData(trpc.admin.stock.exchangeRate.queryKey(), info);
        onSuccess(info);
      },
    }),
  );
}

export function useStockHistory(productId: number) {
  const trpc = useTRPC();
  return useQuery(trpc.admin.stock.history.queryOptions({ productId }));
}

export function useIncomingStock(productId: number) {
  const trpc = useTRPC();
  return useQuery(trpc.admin.stock.incoming.queryOptions({ productId }));
}

/** A correction changes the ledger and the product's stock figure. */
export function useCorrectStock(productId: number, { onSuccess }: { onSuccess: (result: { stock: number }) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.admin.stock.correct.mutationOptions({
      onSuccess: (result) => {
        onSuccess(result);
        void queryClient.invalidateQueries({ queryKey: trpc.admin.stock.history.queryKey({ productId }) });
        void queryClient.invalidateQueries({ queryKey: trpc.admin.product.get.queryKey({ id: productId }) });
      },
    }),
  );
}

export function useRestocks(status: RestockStatus) {
  const trpc = useTRPC();
  return useQuery(trpc.admin.restock.list.queryOptions({ status }));
}

export function useRestockCounts() {
  const trpc = useTRPC();
  return useQuery(trpc.admin.restock.counts.queryOptions());
}

export function useRestockCandidates(enabled: boolean) {
  const trpc = useTRPC();
  return useQuery(trpc.admin.restock.candidates.queryOptions(undefined, { enabled }));
}

/** A decision or a request moves restocks between lists, counts and candidates: all of them refetch. */
function useRefreshRestocks() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: trpc.admin.restock.pathKey() });
}

export function useDecideRestock() {
  const trpc = useTRPC();
  return useMutation(trpc.admin.restock.decide.mutationOptions({ onSuccess: useRefreshRestocks() }));
}

export function useRequestRestock() {
  const trpc = useTRPC();
  return useMutation(trpc.admin.restock.request.mutationOptions({ onSuccess: useRefreshRestocks() }));
}
