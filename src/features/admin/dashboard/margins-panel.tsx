"use client";

import { useState } from "react";
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { AdminBadge } from "@/components/ui/admin-badge";
import { AdminCard, AdminCardHeader } from "@/components/ui/admin-card";
import { AdminTable, AdminTableBody, AdminTableCell, AdminTableHead, AdminTableHeader, AdminTableRow } from "@/components/ui/admin-table";
import { Button } from "@/components/ui/button";
import type { Shop } from "@/lib/enums";
import { formatEuro } from "@/lib/money";
import { cn } from "@/lib/utils";
import type { MonthlyMargin } from "@/server/margins/schemas";
import { formatCount, formatMonth, formatPeso } from "../kit/format";
import { Money } from "../kit/money";
import { stackedTable } from "../kit/list-table";
import { axisTick, tooltipStyle } from "./chart-style";
import { useDashboardMargins } from "./queries";

// The dashboard's margin by month and channel: a panel with its own query and its own choice of months shown.

/** The note under a margin whose purchase cost misses pieces that no purchase was left to cost. */
export function unknownCostNote(pieces: number): string {
  return `${formatCount(pieces)} sold piece${pieces === 1 ? " has" : "s have"} no purchase left to take a cost from: unknown, and not in the purchase cost.`;
}

const channelLabels: Record<Shop, string> = { WEBSHOP: "Web shop", EBAY: "eBay" };
const spans = [3, 6, 12] as const;

/**
 * The table's rows: the newest month first and, within a month, the channels in their usual order (the web shop, then
 * eBay), so that the month's first row is the one that names it.
 */
function newestFirst(rows: readonly MonthlyMargin[]): MonthlyMargin[] {
  return [...rows].sort((a, b) => b.month.localeCompare(a.month) || channelOrder.indexOf(a.shop) - channelOrder.indexOf(b.shop));
}

const channelOrder: Shop[] = ["WEBSHOP", "EBAY"];

export function MarginsPanel() {
  const [months, setMonths] = useState<(typeof spans)[number]>(spans[0]);
  const { data, error, isFetching } = useDashboardMargins(months);
  const rows = data?.months ?? [];
  const points = [...new Set(rows.map((row) => row.month))].map((month) => {
    const of = (shop: Shop) => rows.find((row) => row.month === month && row.shop === shop)?.margin.toNumber() ?? 0;
    return { month: formatMonth(month), WEBSHOP: of("WEBSHOP"), EBAY: of("EBAY") };
  });
  const unknown = rows.reduce((pieces, row) => pieces + row.unknownCostPieces, 0);
  return (
    <AdminCard>
      <AdminCardHeader
        title="Margin by month"
        description="Orders paid in each month (shop time), per channel: what customers paid for items and shipping, less the pieces' purchase cost (first bought, first sold, in euro at each box's rate), provider fees, labels and the refunds given on those orders."
        actions={
          <div className="flex gap-1" role="group" aria-label="Months shown">
            {spans.map((span) => (
              <Button key={span} size="sm" variant={span === months ? "secondary" : "ghost"} className="h-7 px-2 text-xs" aria-pressed={span === months} onClick={() => setMonths(span)}>
                {span} months
              </Button>
            ))}
          </div>
        }
      />
      {error ? <p className="px-4 py-6 text-sm text-destructive">The margins could not load: {error.message}</p> : null}
      {!data && !error ? <div className="m-4 h-48 animate-pulse rounded-md bg-muted/50" aria-busy="true" /> : null}
      {data ? (
        <div className={cn("transition-opacity", isFetching && "opacity-60")}>
          <div className="h-48 px-2 pt-4 pb-2">
            <ResponsiveContainer width="100%" height="100%">
              <BarChart data={points} margin={{ left: 8, right: 12, top: 4, bottom: 0 }}>
                <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" vertical={false} />
                <XAxis dataKey="month" tick={axisTick} tickLine={false} axisLine={false} />
                <YAxis tick={axisTick} tickLine={false} axisLine={false} width={64} tickFormatter={(value: number) => `€${value}`} />
                <Tooltip {...tooltipStyle} cursor={{ fill: "var(--muted)" }} formatter={(value, name) => [formatEuro(Number(value)), channelLabels[name as Shop]]} />
                <Bar dataKey="WEBSHOP" name="WEBSHOP" fill="var(--brass)" radius={[4, 4, 0, 0]} barSize={18} />
                <Bar dataKey="EBAY" name="EBAY" fill="var(--primary)" radius={[4, 4, 0, 0]} barSize={18} />
              </BarChart>
            </ResponsiveContainer>
          </div>
          <div className="border-t md:overflow-x-auto">
            <AdminTable data-testid="margins-table" className={cn(stackedTable, "[&_td]:whitespace-nowrap")}>
              <AdminTableHeader>
                <tr>
                  <AdminTableHead>Month</AdminTableHead>
                  <AdminTableHead>Channel</AdminTableHead>
                  <AdminTableHead className="text-right">Orders</AdminTableHead>
                  <AdminTableHead className="text-right">Revenue</AdminTableHead>
                  <AdminTableHead className="text-right">Shipping</AdminTableHead>
                  <AdminTableHead className="text-right">Purchase cost</AdminTableHead>
                  <AdminTableHead className="text-right">Provider fees</AdminTableHead>
                  <AdminTableHead className="text-right">Labels</AdminTableHead>
                  <AdminTableHead className="text-right">Refunds</AdminTableHead>
                  <AdminTableHead className="text-right">Margin</AdminTableHead>
                </tr>
              </AdminTableHeader>
              <AdminTableBody>
                {newestFirst(rows).map((row, index, shown) => (
                  <AdminTableRow key={`${row.month}-${row.shop}`} data-testid={`margin-${row.month}-${row.shop}`}>
                    {/* The month heads its first row; a phone's cards, one a row, each say it. */}
                    <AdminTableCell className="font-medium">
                      {index > 0 && shown[index - 1]!.month === row.month ? <span className="md:hidden">{formatMonth(row.month)}</span> : formatMonth(row.month)}
                    </AdminTableCell>
                    <AdminTableCell data-label="Channel">
                      <AdminBadge tone={row.shop === "WEBSHOP" ? "brass" : "info"}>{channelLabels[row.shop]}</AdminBadge>
                    </AdminTableCell>
                    <AdminTableCell data-label="Orders" className="text-right">
                      {formatCount(row.orders)}
                    </AdminTableCell>
                    <AdminTableCell data-label="Revenue" className="text-right">
                      <Money value={row.revenue} />
                    </AdminTableCell>
                    <AdminTableCell data-label="Shipping" className="text-right">
                      <Money value={row.shipping} />
                    </AdminTableCell>
                    <AdminTableCell data-label="Purchase cost" className="text-right" title={row.purchaseCostPhp.isZero() ? undefined : formatPeso(row.purchaseCostPhp)}>
                      <Money value={row.purchaseCost} negative />
                      {row.unknownCostPieces > 0 ? <span className="ml-1 text-amber-700 dark:text-amber-400">*</span> : null}
                    </AdminTableCell>
                    <AdminTableCell data-label="Provider fees" className="text-right">
                      <Money value={row.providerFees} negative />
                    </AdminTableCell>
                    <AdminTableCell data-label="Labels" className="text-right">
                      <Money value={row.labelCost} negative />
                    </AdminTableCell>
                    <AdminTableCell data-label="Refunds" className="text-right">
                      {row.refunds.isZero() ? <span className="text-muted-foreground">—</span> : <span className="text-destructive">−{formatEuro(row.refunds)}</span>}
                    </AdminTableCell>
                    <AdminTableCell
                      data-label="Margin"
                      className={cn("text-right font-semibold", row.margin.isNegative() ? "text-destructive" : row.orders > 0 ? "text-emerald-700 dark:text-emerald-400" : "text-muted-foreground")}
                    >
                      {row.orders === 0 ? "—" : formatEuro(row.margin)}
                    </AdminTableCell>
                  </AdminTableRow>
                ))}
              </AdminTableBody>
            </AdminTable>
          </div>
          {unknown > 0 ? <p className="border-t px-4 py-2 text-[11px] text-amber-700 dark:text-amber-400">* {unknownCostNote(unknown)}</p> : null}
        </div>
      ) : null}
    </AdminCard>
  );
}
