"use client";

import { toast } from "@/components/toast";
import { ordersCount, reportBulk } from "../kit/bulk-report";
import { printUrl } from "./print-url";
import { useCreateLabels, useMakeInvoices, useMarkShipped, useVoidLabel } from "./queries";

/**
 * Labels, shipping and invoices (`admin.fulfilment`) with what they tell staff afterwards, for the order page and the
 * order table. `onLabels` gets the orders whose labels were queued, to offer their print-out.
 */
export function useFulfilmentActions({ onLabels }: { onLabels?: (orderIds: number[]) => void } = {}) {
  const createLabels = useCreateLabels();
  const voidLabel = useVoidLabel();
  const markShipped = useMarkShipped();
  const makeInvoices = useMakeInvoices();
  return {
    pending: createLabels.isPending || voidLabel.isPending || markShipped.isPending || makeInvoices.isPending,
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
    createLabels: (orderIds: number[]) =>
      createLabels.mutate(
        { orderIds },
        {
          onSuccess: (outcome) => {
            reportBulk(`Creating ${outcome.queued.length === 1 ? "a label" : `${outcome.queued.length} labels`}`, outcome.queued.length, outcome.refused);
            if (outcome.queued.length > 0) onLabels?.(outcome.queued.map((queued) => queued.orderId));
          },
        },
      ),
    voidLabel: (orderId: number) => voidLabel.mutate({ orderId }, { onSuccess: (voided) => toast.success(`The label of ${voided.orderNumber} is void`) }),
    markShipped: (orderIds: number[]) =>
      markShipped.mutate({ orderIds }, { onSuccess: (outcome) => reportBulk(`${ordersCount(outcome.shipped.length)} shipped`, outcome.shipped.length, outcome.refused) }),
  };
}
