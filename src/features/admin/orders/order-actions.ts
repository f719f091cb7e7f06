"use client";

import { Decimal } from "decimal.js";
import { toast } from "@/components/toast";
import { formatEuro } from "@/lib/money";
import type { StaffOrderStatus } from "@/server/orders/admin-schemas";
import type { CancelledOrder } from "@/server/refunds/schemas";
import { useFulfilmentActions } from "../fulfilment/fulfilment-actions";
import { ordersCount, reportBulk } from "../kit/bulk-report";
import { orderStatusLabels } from "./order-status";
import { useCancelOrder, useTransitionOrders } from "./queries";

/** What a cancel did: the money that went back (or is on its way), and any refund the provider refused. */
function reportCancelled(cancelled: CancelledOrder) {
  const title = `${cancelled.orderNumber} cancelled`;
  const failed = cancelled.refunds.filter((refund) => refund.status === "FAILED");
  const given = cancelled.refunds.filter((refund) => refund.status !== "FAILED").reduce((sum, refund) => sum.plus(refund.amount), new Decimal(0));
  if (failed.length > 0) {
    toast.warning(title, { description: `${failed.length === 1 ? "A refund was" : `${failed.length} refunds were`} refused: nothing of it was paid back. Retry under Refunds.` });
  } else if (cancelled.refusal) {
    toast.warning(title, { description: `Nothing was refunded here: ${cancelled.refusal}` });
  } else {
    toast.success(title, { description: cancelled.refunds.length > 0 ? `${formatEuro(given)} refunded; the items are back in stock.` : "The items are back in stock." });
  }
}

/**
 * The order admin's actions with what they tell staff afterwards. Status changes go through `admin.orders.transition`
 * (the order machine), cancelling through `admin.refunds.cancelOrder` (which refunds a paid order); labels, shipping
 * and invoices are fulfilment's (`useFulfilmentActions`, whose `onLabels` this passes on).
 */
export function useOrderActions({ onLabels }: { onLabels?: (orderIds: number[]) => void } = {}) {
  const fulfilment = useFulfilmentActions({ onLabels });
  const transition = useTransitionOrders();
  const cancelOrder = useCancelOrder();
  return {
    ...fulfilment,
    pending: fulfilment.pending || transition.isPending || cancelOrder.isPending,
    cancel: (orderNumber: string) => cancelOrder.mutate({ orderNumber }, { onSuccess: reportCancelled }),
    transition: (orderIds: number[], to: StaffOrderStatus) =>
      transition.mutate(
        { orderIds, to },
        { onSuccess: (outcome) => reportBulk(`${ordersCount(outcome.done.length)} now ${orderStatusLabels[to]}`, outcome.done.length, outcome.refused) },
      ),
  };
}
