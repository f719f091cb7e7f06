"use client";

import { Decimal } from "decimal.js";
import { Loader2, PackagePlus, RotateCcw, Undo2 } from "lucide-react";
import { useState } from "react";
import { toast } from "@/components/toast";
import { AdminBadge } from "@/components/ui/admin-badge";
import { AdminCard, AdminCardHeader } from "@/components/ui/admin-card";
import { AdminDialog, AdminDialogContent, AdminDialogTrigger } from "@/components/ui/admin-dialog";
import { AdminKbd } from "@/components/ui/admin-form-controls";
import { Button } from "@/components/ui/button";
import { refundSubject } from "@/features/orders/order-overview";
import { formatEuro } from "@/lib/money";
import { cn } from "@/lib/utils";
import type { RefundProposal, RefundView } from "@/server/refunds/schemas";
import { formatDateTime } from "../kit/format";
import { useShortcut } from "../kit/use-shortcut";
import { refundOf, useRefundProposal, useRetryRefund } from "./queries";
import { RefundForm } from "./refund-form";
import { refundReasonLabels, refundStatusLabels, refundStatusTones } from "./refund-labels";

function Totals({ proposal }: { proposal: RefundProposal }) {
  const cells = [
    ["Paid", proposal.paidTotal],
    ["Refunded", proposal.refundedTotal],
    ["Left to refund", proposal.leftToRefund],
  ] as const;
  return (
    <dl className="grid grid-cols-3 divide-x border-b text-center">
      {cells.map(([label, amount]) => (
        <div key={label} className="px-2 py-2.5">
          <dt className="text-[11px] font-medium tracking-wide text-muted-foreground uppercase">{label}</dt>
          <dd className="font-serif text-base font-semibold tabular-nums">{formatEuro(amount)}</dd>
        </div>
      ))}
    </dl>
  );
}

function RefundRow({ refund, retry }: { refund: RefundView; retry: ReturnType<typeof useRetryRefund> }) {
  const retrying = retry.isPending && retry.variables?.refundId === refund.id;
  const facts = [
    refundReasonLabels[refund.reason],
    refund.kind === "PRODUCT" ? (refund.restocked ? "back in stock" : "not put back in stock") : null,
    refund.monetary ? null : "paid back by hand",
    `${formatDateTime(refund.createdAt)}${refund.staffName ? ` by ${refund.staffName}` : ""}`,
    refund.status === "REFUNDED" && refund.settledAt && refund.monetary ? `refunded ${formatDateTime(refund.settledAt)}` : null,
  ].filter(Boolean);
  const again = () =>
    retry.mutate(
      { refundId: refund.id },
      {
        onSuccess: (result) => {
          const after = refundOf(result, refund.id) ?? refundOf(result);
          if (after?.status === "FAILED") toast.error("The refund failed again", { description: after.failureMessage ?? "The payment provider refused it." });
          else toast.success(after?.status === "REFUNDED" ? `${formatEuro(refund.amount)} refunded` : `Refunding ${formatEuro(refund.amount)}`);
        },
      },
    );
  return (
    <li className="flex items-start gap-3 px-4 py-3">
      <div className="min-w-0 flex-1 space-y-0.5">
        <p className="flex items-center gap-1.5 text-sm font-medium">
          {refund.restocked ? <PackagePlus className="size-3.5 text-muted-foreground" aria-hidden="true" /> : null}
          {refundSubject(refund)}
        </p>
        <p className="text-xs text-muted-foreground">{facts.join(" · ")}</p>
        {refund.comment ? <p className="text-xs break-words">“{refund.comment}”</p> : null}
        {refund.status === "FAILED" ? (
          <div className="flex flex-wrap items-center gap-2 pt-1">
            <p className="text-xs text-destructive">{refund.failureMessage ?? "The payment provider refused the refund."}</p>
            <Button size="sm" variant="outline" className="h-7 px-2 text-xs" disabled={retry.isPending} onClick={again}>
              {retrying ? <Loader2 className="animate-spin" /> : <RotateCcw />} Retry refund
            </Button>
          </div>
        ) : null}
      </div>
      <div className="flex shrink-0 flex-col items-end gap-1">
        <span className={cn("text-sm font-semibold tabular-nums", refund.status === "FAILED" && "text-muted-foreground line-through")}>{formatEuro(refund.amount)}</span>
        <AdminBadge tone={refundStatusTones[refund.status]}>{refundStatusLabels[refund.status]}</AdminBadge>
      </div>
    </li>
  );
}

/**
 * The order page's refunds: what was paid, refunded and is left, each refund with its state (a failed one with the
 * provider's reason and a retry), and the Refund dialog (key R) while the order can be refunded at all.
 */
export function RefundPanel({ orderNumber }: { orderNumber: string }) {
  const query = useRefundProposal(orderNumber);
  const retry = useRetryRefund();
  const [open, setOpen] = useState(false);
  const proposal = query.data;
  // Once everything paid has gone back there is nothing left to offer, though the order itself could be refunded.
  const nothingLeft = proposal !== undefined && !new Decimal(proposal.leftToRefund).greaterThan(0);
  const canRefund = proposal !== undefined && proposal.refusal === null && !nothingLeft;
  useShortcut("r", () => setOpen(true), canRefund && !open);

  if (query.isPending) return <div className="h-32 animate-pulse rounded-lg border bg-muted/40" aria-label="Loading the refunds" />;
  if (!proposal) {
    return (
      <AdminCard aria-label="Refunds">
        <AdminCardHeader title="Refunds" />
        <p className="px-4 py-3 text-sm text-muted-foreground">We could not read the refunds: {query.error?.message ?? "no answer"}. Reload the page to try again.</p>
      </AdminCard>
    );
  }

  const count = proposal.refunds.length;
  return (
    <AdminCard aria-label="Refunds">
      <AdminCardHeader
        title="Refunds"
        description={proposal.refusal ?? (nothingLeft ? (count ? "Everything paid has been refunded." : "Nothing was paid: there is nothing to refund.") : count ? `${count} refund${count === 1 ? "" : "s"}` : "Nothing refunded yet")}
        actions={
          canRefund ? (
            <AdminDialog open={open} onOpenChange={setOpen}>
              <AdminDialogTrigger asChild>
                <Button size="sm" variant="outline" aria-keyshortcuts="r" title="Refund (R)">
                  <Undo2 /> Refund
                  <AdminKbd aria-hidden="true">R</AdminKbd>
                </Button>
              </AdminDialogTrigger>
              <AdminDialogContent title="Refund" description={`Order ${proposal.orderNumber}: pieces of a line, the shipping, or a goodwill amount. Each refund is one payout.`}>
                <RefundForm proposal={proposal} onDone={() => setOpen(false)} />
              </AdminDialogContent>
            </AdminDialog>
          ) : null
        }
      />
      <Totals proposal={proposal} />
      {count ? (
        <ul className="divide-y" aria-label="Refunds of this order">
          {proposal.refunds.map((refund) => (
            <RefundRow key={refund.id} refund={refund} retry={retry} />
          ))}
        </ul>
      ) : null}
    </AdminCard>
  );
}
