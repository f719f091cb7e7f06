"use client";

import { AdminCard, AdminCardHeader } from "@/components/ui/admin-card";
import { formatEuro } from "@/lib/money";
import { cn } from "@/lib/utils";
import { CardField } from "../kit/card-field";
import { formatPeso, formatPieces } from "../kit/format";
import { useOrderMargin } from "./queries";

/**
 * What the order earned: what the customer paid less the FIFO purchase cost of the pieces they kept, provider fees,
 * the label and refunds (`admin.margins.order`). Pieces sold with no purchase left to take them from are named, not
 * priced.
 */
export function OrderMargin({ orderNumber }: { orderNumber: string }) {
  const margin = useOrderMargin(orderNumber);
  const data = margin.data;
  return (
    <AdminCard>
      <AdminCardHeader title="Margin" description={data && !data.sold ? "The order sold nothing: it has no margin." : "Purchase cost first bought, first sold"} />
      {data?.sold ? (
        <dl className="px-4 py-3">
          <CardField label="Paid">{formatEuro(data.paid)}</CardField>
          <CardField label="Purchase cost">
            <span title={formatPeso(data.purchaseCostPhp)}>−{formatEuro(data.purchaseCost)}</span>
          </CardField>
          <CardField label="Provider fees">−{formatEuro(data.providerFees)}</CardField>
          <CardField label="Label">−{formatEuro(data.labelCost)}</CardField>
          <CardField label="Refunds">−{formatEuro(data.refunds)}</CardField>
          <CardField label="Margin">
            <strong className={cn("font-semibold", data.margin?.isNegative() && "text-destructive")}>{data.margin ? formatEuro(data.margin) : "—"}</strong>
          </CardField>
          {data.unknownCostPieces > 0 ? (
            <p className="pt-1 text-xs text-muted-foreground">
              {formatPieces(data.unknownCostPieces)} sold with no purchase left to cost them: the margin is higher than it will be.
            </p>
          ) : null}
        </dl>
      ) : margin.isError ? (
        <p className="px-4 py-3 text-sm text-muted-foreground">We could not work out the margin: {margin.error.message}</p>
      ) : null}
    </AdminCard>
  );
}
