"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc/client";
import type { CustomerListInput } from "@/server/account/customer-admin-schemas";

/** A page of the customer table; the previous page stays on screen while the next loads. */
export function useCustomers(query: CustomerListInput) {
  const trpc = useTRPC();
  return useQuery(trpc.admin.customers.list.queryOptions(query, { placeholderData: keepPreviousData }));
}

export function useCustomer(userId: string) {
  const trpc = useTRPC();
  return useQuery(trpc.admin.customers.get.queryOptions({ userId }, { retry: false }));
}

/**
 * A change to a customer dirties the customer admin's queries (the table and the pages, matched by their path), and
 * the customer pickers of manual orders and discounts, which show the role.
 */
function useRefreshCustomers() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () =>
    Promise.all(
      [trpc.admin.customers.pathKey(), trpc.admin.manualOrder.searchCustomers.pathKey(), trpc.admin.discounts.searchCustomers.pathKey()].map((queryKey) =>
        queryClient.invalidateQueries({ queryKey }),
      ),
    );
}

export function useUpdateCustomerNotes() {
  const trpc = useTRPC();
  return useMutation(trpc.admin.customers.updateNotes.mutationOptions({ onSuccess: useRefreshCustomers() }));
}

export function useSetCustomerVip() {
  const trpc = useTRPC();
  return useMutation(trpc.admin.customers.setVip.mutationOptions({ onSuccess: useRefreshCustomers() }));
}

/** The export is logged, so it is a mutation; the page's logbook shows the entry afterwards. */
export function useExportCustomerData() {
  const trpc = useTRPC();
  return useMutation(trpc.admin.customers.exportData.mutationOptions({ onSuccess: useRefreshCustomers() }));
}

export function useEraseCustomer() {
  const trpc = useTRPC();
  return useMutation(trpc.admin.customers.erase.mutationOptions({ onSuccess: useRefreshCustomers() }));
}
