"use client";

import { Decimal } from "decimal.js";
import { AlertTriangle, CircleCheck, Undo2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { formatEuro } from "@/lib/money";
import type { RefundProposal } from "@/server/refunds/schemas";
import { formatDateTime } from "../kit/format";
import { useRefundProposal } from "../refunds/queries";

/**
 * What to give back for the pieces sold twice. The proposal knows what is left per line but not which pieces were
 * oversold, so: everything left when every piece left was oversold (shipping included, as nothing ships), the line's
 * own proposal when only one line is left, and no amount when several lines share the oversold pieces.
 */
export function oversoldRefundAmount(proposal: RefundProposal, oversoldPieces: number): Decimal | null {
  const open = proposal.lines.filter((line) => line.refundableQuantity > 0);
  const openPieces = open.reduce((sum, line) => sum + line.refundableQuantity, 0);
  if (openPieces === 0) return null;
  if (oversoldPieces >= openPieces) return new Decimal(proposal.leftToRefund);
  const [only] = open;
  if (open.length === 1 && only) {
    const amount = only.proposedAmounts[Math.min(oversoldPieces, only.proposedAmounts.length) - 1];
    return amount ? new Decimal(amount) : null;
  }
  return null;
}

/** The refunds panel of the order page, scrolled to, with its Refund dialog opened when the order can be refunded. */
function openRefunds() {
  const panel = document.querySelector<HTMLElement>('section[aria-label="Refunds"]');
  if (!panel) return;
  panel.scrollIntoView({ behavior: "smooth", block: "start" });
  panel.querySelector<HTMLButtonElement>('button[aria-keyshortcuts="r"]')?.click();
}

/**
 * The order page's warning on a marketplace order that came in for pieces the web shop had already sold: the buyer
 * must get their money back, and the notice proposes how much.
 */
export function OversoldNotice({ orderNumber, oversoldAt, oversoldPieces }: { orderNumber: string; oversoldAt: Date; oversoldPieces: number }) {
  const proposal = useRefundProposal(orderNumber).data;
  const pieces = oversoldPieces === 1 ? "the last piece" : `the last ${oversoldPieces} pieces`;
  const refunded = proposal !== undefined && proposal.refunds.length > 0 && !new Decimal(proposal.leftToRefund).greaterThan(0);
  const amount = proposal ? oversoldRefundAmount(proposal, oversoldPieces) : null;

  if (refunded) {
    return (
      <div role="status" className="flex items-start gap-3 rounded-lg border border-emerald-600/30 bg-emerald-600/5 px-4 py-3 text-sm">
        <CircleCheck className="mt-0.5 size-4 shrink-0 text-emerald-700 dark:text-emerald-400" aria-hidden="true" />
        <p>
          <span className="font-medium">Sold twice, refunded.</span> This eBay order came in after the web shop sold {pieces} ({formatDateTime(oversoldAt)}); the buyer has been refunded.
        </p>
      </div>
    );
  }

  return (
    <div role="alert" className="flex flex-col gap-3 rounded-lg border border-amber-500/50 bg-amber-500/10 px-4 py-3 text-sm sm:flex-row sm:items-center">
      <AlertTriangle className="hidden size-5 shrink-0 text-amber-700 sm:block dark:text-amber-400" aria-hidden="true" />
      <div className="min-w-0 flex-1">
        <p className="font-semibold text-amber-900 dark:text-amber-200">Sold twice</p>
        <p className="text-amber-900/90 dark:text-amber-100/90">
          This eBay order came in after the web shop sold {pieces} ({formatDateTime(oversoldAt)}).{" "}
          {proposal?.refusal ? (
            <>Refund the buyer once possible: {proposal.refusal}</>
          ) : (
            <>
              Refund the buyer: <span className="font-semibold tabular-nums">{amount ? `${formatEuro(amount)} proposed` : `${oversoldPieces === 1 ? "1 piece" : `${oversoldPieces} pieces`} to refund`}</span>.
            </>
          )}
        </p>
      </div>
      <Button size="sm" className="shrink-0 self-start sm:self-center" onClick={openRefunds}>
        <Undo2 /> Refund the buyer
      </Button>
    </div>
  );
}
