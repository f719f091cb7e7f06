"use client";

import { useMutation } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc/client";
import { useRefreshOrders } from "../orders/queries";

export function useCreateLabels() {
  const trpc = useTRPC();
  return useMutation(trpc.admin.fulfilment.createLabels.mutationOptions({ onSuccess: useRefreshOrders() }));
}

export function useVoidLabel() {
  const trpc = useTRPC();
  return useMutation(trpc.admin.fulfilment.voidLabel.mutationOptions({ onSuccess: useRefreshOrders() }));
}

/** Gives the chosen orders their invoice numbers (`admin.fulfilment.makeInvoices`); the order pages show them after. */
export function useMakeInvoices() {
  const trpc = useTRPC();
  return useMutation(trpc.admin.fulfilment.makeInvoices.mutationOptions({ onSuccess: useRefreshOrders() }));
}

export function useMarkShipped() {
  const trpc = useTRPC();
  return useMutation(trpc.admin.fulfilment.markShipped.mutationOptions({ onSuccess: useRefreshOrders() }));
}
