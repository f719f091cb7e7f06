"use client";

import { AlertTriangle, Loader2 } from "lucide-react";
import type { ReactNode } from "react";
import { AdminBadge, type AdminBadgeTone } from "@/components/ui/admin-badge";
import { AdminCard, AdminCardHeader } from "@/components/ui/admin-card";
import type { OrderStatus } from "@/lib/enums";
import type { ManualOrderQuote } from "@/server/orders/manual-order-schemas";
import { formatEuro } from "@/lib/money";
import { formatDate } from "../kit/format";
import { summaryRows } from "./manual-order-values";

export const manualOrderStatusLabels: Record<OrderStatus, { label: string; tone: AdminBadgeTone }> = {
  PENDING: { label: "Pending: awaiting payment", tone: "warning" },
  PAID_READY_TO_SHIP: { label: "Ready to ship", tone: "success" },
  PAID_FUTURE_SHIPMENT: { label: "Future shipment", tone: "info" },
  PROCESSED: { label: "Processed", tone: "brass" },
  SHIPPED: { label: "Shipped", tone: "neutral" },
  CANCELLED: { label: "Cancelled", tone: "danger" },
};

function Row({ label, children, strong }: { label: string; children: ReactNode; strong?: boolean }) {
  return (
    <div className={strong ? "flex justify-between border-t pt-2 text-base font-semibold" : "flex justify-between text-sm"}>
      <dt className={strong ? undefined : "text-muted-foreground"}>{label}</dt>
      <dd className="tabular-nums">{children}</dd>
    </div>
  );
}

/**
 * The live preview: what the server prices the form at (lines, shipping, totals), the status the order gets and
 * what would refuse it. Nothing here is computed in the browser.
 */
export function QuoteSummary({ quote, loading, error, action, collected = false }: { quote: ManualOrderQuote | undefined; loading: boolean; error: string | null; action: ReactNode; collected?: boolean }) {
  const status = quote ? (quote.collected ? { label: "Shipped and collected", tone: "neutral" as const } : manualOrderStatusLabels[quote.status]) : null;
  const difference = quote?.previousTotal ? quote.totals.total.minus(quote.previousTotal) : null;
  return (
    <AdminCard aria-label="Order totals" className="lg:sticky lg:top-4">
      <AdminCardHeader title="Totals" description="Priced by the server as it will be saved." actions={loading ? <Loader2 className="size-4 animate-spin text-muted-foreground" /> : null} />
      <div className="space-y-3 px-4 py-3">
        {quote ? (
          <>
            <dl className="space-y-1.5" data-testid="order-totals">
              {summaryRows(quote).map((row) => (
                <Row key={row.label} label={row.label} strong={row.strong}>
                  {row.amount}
                </Row>
              ))}
              {difference && !difference.isZero() ? (
                <p className="text-right text-xs text-muted-foreground">
                  {quote.status === "PENDING" ? "was" : "paid"} {formatEuro(quote.previousTotal!)} ({difference.isPositive() ? "+" : "−"}
                  {formatEuro(difference.abs())})
                </p>
              ) : null}
            </dl>
            {quote.collected ? (
              <p className="text-xs text-muted-foreground">Paid at the counter and taken along: saved as shipped and collected, with no label or shipping day.</p>
            ) : quote.shipping ? (
              <p className="text-xs text-muted-foreground">
                To {quote.shipping.destination}
                {quote.shipping.estimatedShippingDate ? `, leaves ${formatDate(quote.shipping.estimatedShippingDate)}` : ", no shipping day planned"}
                {quote.shipping.estimatedDeliveryDate ? `, arrives about ${formatDate(quote.shipping.estimatedDeliveryDate)}` : ""}.
              </p>
            ) : null}
            {status ? (
              <p className="flex items-center gap-2 text-xs text-muted-foreground">
                Saved as <AdminBadge tone={status.tone}>{status.label}</AdminBadge>
              </p>
            ) : null}
            {quote.problems.length ? (
              <ul className="space-y-1 rounded-md border border-amber-500/30 bg-amber-500/10 px-3 py-2 text-xs text-amber-900 dark:text-amber-200" aria-label="Before it can be saved">
                {quote.problems.map((problem) => (
                  <li key={problem} className="flex gap-1.5">
                    <AlertTriangle className="mt-0.5 size-3.5 shrink-0" /> {problem}
                  </li>
                ))}
              </ul>
            ) : null}
          </>
        ) : (
          <p className="text-sm text-muted-foreground">{error ?? (collected ? "Add products to see the totals." : "Add products and choose a country to see the totals.")}</p>
        )}
        {quote && error ? <p className="text-xs text-destructive">{error}</p> : null}
        {action}
      </div>
    </AdminCard>
  );
}
