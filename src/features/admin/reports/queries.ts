"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc/client";
import type { AgedStockInput, SellersInput } from "@/server/reports/schemas";

// The owner's reports over tRPC; each keeps what is on screen while another choice (months, page, period) loads.

export function useSalesReport(months: 12 | 24) {
  const trpc = useTRPC();
  return useQuery(trpc.admin.reports.sales.queryOptions({ months }, { placeholderData: keepPreviousData }));
}

export function useStockValue() {
  const trpc = useTRPC();
  return useQuery(trpc.admin.reports.stockValue.queryOptions());
}

export function useAgedStock(input: AgedStockInput) {
  const trpc = useTRPC();
  return useQuery(trpc.admin.reports.agedStock.queryOptions(input, { placeholderData: keepPreviousData }));
}

export function useSellThrough() {
  const trpc = useTRPC();
  return useQuery(trpc.admin.reports.sellThrough.queryOptions());
}

export function useSellers(input: SellersInput) {
  const trpc = useTRPC();
  return useQuery(trpc.admin.reports.sellers.queryOptions(input, { placeholderData: keepPreviousData }));
}
