"use client";

import Link from "next/link";
import { useState } from "react";
import { AdminCard, AdminCardHeader } from "@/components/ui/admin-card";
import { AdminInput, AdminLabel } from "@/components/ui/admin-form-controls";
import { AdminTable, AdminTableBody, AdminTableCell, AdminTableHead, AdminTableHeader, AdminTableRow } from "@/components/ui/admin-table";
import { cn } from "@/lib/utils";
import type { Seller } from "@/server/reports/schemas";
import { formatCount } from "../kit/format";
import { Money } from "../kit/money";
import { stackedTable } from "../kit/list-table";
import { useSellers } from "./queries";
import { CsvLink, MarginCell, RefundsCell, ReportState } from "./report-kit";

// Best and worst sellers by margin over months the owner picks: the last three unless changed.

const two = (value: number) => String(value).padStart(2, "0");

/** The browser's current month and the two before it, as month fields hold them. */
function lastThreeMonths(): { from: string; to: string } {
  const today = new Date();
  const start = new Date(today.getFullYear(), today.getMonth() - 2, 1);
  return { from: `${start.getFullYear()}-${two(start.getMonth() + 1)}`, to: `${today.getFullYear()}-${two(today.getMonth() + 1)}` };
}

const isPeriod = (period: { from: string; to: string }) => /^\d{4}-\d{2}$/.test(period.from) && /^\d{4}-\d{2}$/.test(period.to) && period.from <= period.to;

function SellerTable({ testId, rows }: { testId: string; rows: Seller[] }) {
  return (
    <div className="md:overflow-x-auto">
      <AdminTable data-testid={testId} className={cn(stackedTable, "[&_td]:whitespace-nowrap")}>
        <AdminTableHeader>
          <tr>
            <AdminTableHead>Product</AdminTableHead>
            {["Pieces", "Revenue", "Purchase cost", "Refunds", "Margin"].map((label) => (
              <AdminTableHead key={label} className="text-right">
                {label}
              </AdminTableHead>
            ))}
          </tr>
        </AdminTableHeader>
        <AdminTableBody>
          {rows.length === 0 ? (
            <AdminTableRow>
              <AdminTableCell colSpan={6} className="h-20 text-center text-muted-foreground">
                Nothing was sold in these months.
              </AdminTableCell>
            </AdminTableRow>
          ) : null}
          {rows.map((row) => (
            <AdminTableRow key={row.productId}>
              <AdminTableCell className="max-w-72 truncate">
                <Link href={`/admin/products/edit?id=${row.productId}`} className="font-medium hover:underline" title={row.productName}>
                  {row.productName}
                </Link>
              </AdminTableCell>
              <AdminTableCell data-label="Pieces" className="text-right tabular-nums">
                {formatCount(row.pieces)}
              </AdminTableCell>
              <AdminTableCell data-label="Revenue" className="text-right tabular-nums">
                <Money value={row.revenue} />
              </AdminTableCell>
              <AdminTableCell data-label="Purchase cost" className="text-right tabular-nums">
                <Money value={row.purchaseCost} negative />
                {row.unknownCostPieces > 0 ? (
                  <span className="ml-1 text-amber-700 dark:text-amber-400" title={`${row.unknownCostPieces} sold of unknown cost: not in the purchase cost`}>
                    *
                  </span>
                ) : null}
              </AdminTableCell>
              <RefundsCell value={row.refunds} />
              <MarginCell value={row.margin} />
            </AdminTableRow>
          ))}
        </AdminTableBody>
      </AdminTable>
    </div>
  );
}

export function SellersReport() {
  const [period, setPeriod] = useState(lastThreeMonths);
  // What was last asked of the server: the months on screen until both fields hold a valid period again.
  const [asked, setAsked] = useState(period);
  const change = (next: typeof period) => {
    setPeriod(next);
    if (isPeriod(next)) setAsked(next);
  };
  const { data, error, isFetching } = useSellers({ ...asked, limit: 20 });
  return (
    <div className="space-y-4">
      <AdminCard>
        <AdminCardHeader
          title="Best and worst sellers by margin"
          description="Per product, over the months chosen (shop time): what its lines were paid, less what the pieces kept cost to buy and the refunds of them. Fees, shipping and labels belong to whole orders: the sales report has them. * pieces of unknown cost: the margin is too high by what they cost."
          actions={<CsvLink report="sellers" options={asked} />}
        />
        <div className="flex flex-wrap items-end gap-3 px-4 py-3">
          <div className="space-y-1">
            <AdminLabel htmlFor="sellers-from">First month</AdminLabel>
            <AdminInput id="sellers-from" type="month" className="w-44" value={period.from} max={period.to} onChange={(event) => change({ ...period, from: event.target.value })} />
          </div>
          <div className="space-y-1">
            <AdminLabel htmlFor="sellers-to">Last month</AdminLabel>
            <AdminInput id="sellers-to" type="month" className="w-44" value={period.to} min={period.from} onChange={(event) => change({ ...period, to: event.target.value })} />
          </div>
          {isPeriod(period) ? null : <p className="text-xs text-destructive">Choose a first month before the last.</p>}
        </div>
      </AdminCard>
      <div className="grid gap-4 2xl:grid-cols-2">
        <AdminCard>
          <AdminCardHeader title="Best sellers" description="The highest margin first." />
          <ReportState what="sellers" error={error} loading={!data} fetching={isFetching}>
            <SellerTable testId="best-sellers" rows={data?.best ?? []} />
          </ReportState>
        </AdminCard>
        <AdminCard>
          <AdminCardHeader title="Worst sellers" description="The lowest margin first: losses before thin margins." />
          <ReportState what="sellers" error={error} loading={!data} fetching={isFetching}>
            <SellerTable testId="worst-sellers" rows={data?.worst ?? []} />
          </ReportState>
        </AdminCard>
      </div>
    </div>
  );
}
