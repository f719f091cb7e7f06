"use client";

import Link from "next/link";
import { useMemo, useState } from "react";
import { Button } from "@/components/ui/button";
import { AdminCard, AdminCardHeader } from "@/components/ui/admin-card";
import { AdminLabel, AdminSelect } from "@/components/ui/admin-form-controls";
import { AdminTable, AdminTableBody, AdminTableCell, AdminTableHead, AdminTableHeader, AdminTableRow } from "@/components/ui/admin-table";
import { cn } from "@/lib/utils";
import type { Seller } from "@/server/reports/schemas";
import { formatCount } from "../kit/format";
import { Money } from "../kit/money";
import { stackedTable } from "../kit/list-table";
import { useSellers } from "./queries";
import { CsvLink, MarginCell, RefundsCell, ReportState } from "./report-kit";
import { currentPeriod, periodKindLabels, periodKinds, periodOptions, type PeriodKind } from "./seller-periods";

// Best and worst sellers by margin over the period the owner picks: a month, a quarter or a year, the current quarter
// unless changed.

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
                Nothing was sold in this period.
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
  const [kind, setKind] = useState<PeriodKind>("quarter");
  const [period, setPeriod] = useState(() => currentPeriod("quarter", new Date()));
  const options = useMemo(() => periodOptions(kind, new Date()), [kind]);
  const choose = (next: PeriodKind) => {
    setKind(next);
    setPeriod(currentPeriod(next, new Date()));
  };
  const { data, error, isFetching } = useSellers({ period, limit: 20 });
  return (
    <div className="space-y-4">
      <AdminCard>
        <AdminCardHeader
          title="Best and worst sellers by margin"
          description="Per product, over the period chosen (shop time): what its lines were paid, less what the pieces kept cost to buy and the refunds of them. Fees, shipping and labels belong to whole orders: the sales report has them. * pieces of unknown cost: the margin is too high by what they cost."
          actions={<CsvLink report="sellers" options={{ period }} />}
        />
        <div className="flex flex-wrap items-end gap-3 px-4 py-3">
          <div className="space-y-1">
            <span id="sellers-kind-label" className="block text-xs font-medium text-muted-foreground">
              Period
            </span>
            <div className="flex h-9 items-center gap-1" role="group" aria-labelledby="sellers-kind-label">
              {periodKinds.map((candidate) => (
                <Button
                  key={candidate}
                  size="sm"
                  variant={candidate === kind ? "secondary" : "ghost"}
                  className="h-8 px-3 text-xs"
                  aria-pressed={candidate === kind}
                  onClick={() => choose(candidate)}
                >
                  {periodKindLabels[candidate]}
                </Button>
              ))}
            </div>
          </div>
          <div className="min-w-0 space-y-1 max-sm:w-full">
            <AdminLabel htmlFor="sellers-period">{periodKindLabels[kind]}</AdminLabel>
            <AdminSelect id="sellers-period" className="w-60 max-sm:w-full" value={period} onChange={(event) => setPeriod(event.target.value)}>
              {options.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </AdminSelect>
          </div>
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
