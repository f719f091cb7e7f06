"use client";

import { keepPreviousData, useMutation, useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc/client";
import type { ShippingCalendarRangeInput } from "@/server/shipping/schemas";
import { useRefreshOrders } from "../orders/queries";

export function useShippingCalendar(range: ShippingCalendarRangeInput) {
  const trpc = useTRPC();
  return useQuery(trpc.admin.shippingCalendar.list.queryOptions(range, { placeholderData: keepPreviousData }));
}

/** A calendar change re-plans the orders waiting to ship (a future shipment may now be ready): read them again. */
function useCalendarChange() {
  const trpc = useTRPC();
  return useRefreshOrders([trpc.admin.shippingCalendar.list.queryKey()]);
}

export function useAddShippingDay() {
  const trpc = useTRPC();
  const refresh = useCalendarChange();
  return useMutation(trpc.admin.shippingCalendar.add.mutationOptions({ onSuccess: refresh }));
}

export function useRemoveShippingDay() {
  const trpc = useTRPC();
  const refresh = useCalendarChange();
  return useMutation(trpc.admin.shippingCalendar.remove.mutationOptions({ onSuccess: refresh }));
}

/** Closing a day re-plans the orders that were to leave on it, as a calendar change does. */
export function useAddClosingDay() {
  const trpc = useTRPC();
  const refresh = useCalendarChange();
  return useMutation(trpc.admin.shippingCalendar.addClosingDay.mutationOptions({ onSuccess: refresh }));
}

export function useRemoveClosingDay() {
  const trpc = useTRPC();
  const refresh = useCalendarChange();
  return useMutation(trpc.admin.shippingCalendar.removeClosingDay.mutationOptions({ onSuccess: refresh }));
}
