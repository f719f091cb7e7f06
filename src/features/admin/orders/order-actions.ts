"use client";

import { Decimal } from "decimal.js";
import { toast } from "@/components/toast";
import type { StaffOrderStatus } from "@/server/orders/admin-schemas";
import { orderStatusLabels, printUrl } from "./order-status";
import { formatEuro } from "@/lib/money";
import type { CancelledOrder } from "@/server/refunds/schemas";
import { useCancelOrder, useCreateLabels, useMakeInvoices, useMarkShipped, useTransitionOrders, useVoidLabel } from "./queries";

type Refusal = { orderNumber: string | null; reason: string };

/** What a bulk action did, as one toast: how many went through, and why the others did not (the first few). */
function report(done: string, count: number, refused: Refusal[]) {
  if (refused.length === 0) {
    toast.success(done);
    return;
  }
  const reasons = refused.slice(0, 3).map((refusal) => refusal.reason);
  if (refused.length > 3) reasons.push(`… and ${refused.length - 3} more.`);
  const title = count > 0 ? `${done}; ${refused.length} left as they were` : `Nothing changed: ${refused.length === 1 ? "the order was" : `${refused.length} orders were`} refused`;
  toast.warning(title, { description: reasons.join(" ") });
}

const orders = (count: number) => `${count} order${count === 1 ? "" : "s"}`;

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
 * and invoices through `admin.fulfilment`. `onLabels` gets the orders whose labels were queued, to offer their print-out.
 */
export function useOrderActions({ onLabels }: { onLabels?: (orderIds: number[]) => void } = {}) {
  const transition = useTransitionOrders();
  const createLabels = useCreateLabels();
  const voidLabel = useVoidLabel();
  const markShipped = useMarkShipped();
  const cancelOrder = useCancelOrder();
  const makeInvoices = useMakeInvoices();
  return {
    pending:
      transition.isPending || createLabels.isPending || voidLabel.isPending || markShipped.isPending || cancelOrder.isPending || makeInvoices.isPending,
    cancel: (orderNumber: string) => cancelOrder.mutate({ orderNumber }, { onSuccess: reportCancelled }),
    /**
     * One click, the invoices on screen: the orders without an invoice get their numbers (a POST, logged), then the
     * print-out opens in a new tab, which only reads (SECURITY-REVIEW N-L1). The tab is opened at the click, while
     * the browser still counts it as the user's: opened once the call has answered, it would be blocked as a pop-up.
     */
    printInvoices: (orderIds: number[]) => {
      const tab = window.open("", "_blank");
      if (tab) tab.opener = null;
      makeInvoices.mutate(
        { orderIds },
        {
          onSuccess: ({ invoices }) => {
            const made = invoices.filter((invoice) => invoice.made);
            if (made.length > 0) toast.success(made.length === 1 ? `Invoice ${made[0]!.invoiceNumber} made` : `${made.length} invoices made`);
            if (tab) tab.location.href = printUrl("invoices", orderIds);
            else window.location.assign(printUrl("invoices", orderIds));
          },
          onError: () => tab?.close(),
        },
      );
    },
    transition: (orderIds: number[], to: StaffOrderStatus) =>
      transition.mutate(
        { orderIds, to },
        { onSuccess: (outcome) => report(`${orders(outcome.done.length)} now ${orderStatusLabels[to]}`, outcome.done.length, outcome.refused) },
      ),
    createLabels: (orderIds: number[]) =>
      createLabels.mutate(
        { orderIds },
        {
          onSuccess: (outcome) => {
            report(`Creating ${outcome.queued.length === 1 ? "a label" : `${outcome.queued.length} labels`}`, outcome.queued.length, outcome.refused);
            if (outcome.queued.length > 0) onLabels?.(outcome.queued.map((queued) => queued.orderId));
          },
        },
      ),
    voidLabel: (orderId: number) => voidLabel.mutate({ orderId }, { onSuccess: (voided) => toast.success(`The label of ${voided.orderNumber} is void`) }),
    markShipped: (orderIds: number[]) =>
      markShipped.mutate({ orderIds }, { onSuccess: (outcome) => report(`${orders(outcome.shipped.length)} shipped`, outcome.shipped.length, outcome.refused) }),
  };
}
