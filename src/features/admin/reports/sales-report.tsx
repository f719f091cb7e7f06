"use client";

import { useState } from "react";
import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { AdminBadge } from "@/components/ui/admin-badge";
import { AdminCard, AdminCardHeader } from "@/components/ui/admin-card";
import { AdminTable, AdminTableBody, AdminTableCell, AdminTableHead, AdminTableHeader, AdminTableRow } from "@/components/ui/admin-table";
import { Button } from "@/components/ui/button";
import { salesChannels, type SalesChannel } from "@/lib/enums";
import { formatEuro } from "@/lib/money";
import { cn } from "@/lib/utils";
import type { SalesMonth } from "@/server/reports/schemas";
import { axisTick, tooltipStyle } from "../dashboard/chart-style";
import { formatCount, formatMonth, formatPeso } from "../kit/format";
import { Money } from "../kit/money";
import { stackedTable } from "../kit/list-table";
import { useSalesReport } from "./queries";
import { channelColours, channelLabels, CsvLink, formatAxisEuro, MarginCell, RefundsCell, ReportState, UnknownCostNote } from "./report-kit";

// Sales and margin by month and channel: revenue per channel stacked per month with the margin beside it, and the table.

const spans = [12, 24] as const;

const badgeTone: Record<SalesChannel, "brass" | "info" | "neutral"> = { WEBSHOP: "brass", EBAY: "info", MANUAL: "neutral" };

function chartPoints(rows: readonly SalesMonth[]) {
  return [...new Set(rows.map((row) => row.month))].map((month) => {
    const ofMonth = rows.filter((row) => row.month === month);
    const revenue = (channel: SalesChannel) => ofMonth.find((row) => row.channel === channel)?.revenue.toNumber() ?? 0;
    return {
      month: formatMonth(month),
      WEBSHOP: revenue("WEBSHOP"),
      EBAY: revenue("EBAY"),
      MANUAL: revenue("MANUAL"),
      margin: ofMonth.reduce((total, row) => total + row.margin.toNumber(), 0),
    };
  });
}

const seriesLabels: Record<string, string> = { ...channelLabels, margin: "Margin" };

export function SalesReport() {
  const [months, setMonths] = useState<(typeof spans)[number]>(12);
  const { data, error, isFetching } = useSalesReport(months);
  const rows = data?.months ?? [];
  // The newest month first; a month and channel without an order or a refund says nothing, and is left out.
  const shown = [...rows].reverse().filter((row) => row.orders > 0 || !row.refunds.isZero());
  const unknown = rows.reduce((pieces, row) => pieces + row.unknownCostPieces, 0);
  return (
    <div className="space-y-4">
      <AdminCard>
        <AdminCardHeader
          title="Sales and margin by month"
          description="Orders paid in each month (shop time), per channel, in whole euros (the CSV has the cents): revenue is what customers paid for the items after discounts; cost is what the pieces cost to buy, and no cost counts the pieces whose cost is unknown (the margin is too high by what they cost). The margin takes off the pieces' purchase cost as recorded when they left stock, provider fees, labels and the refunds given on those orders."
          actions={
            <>
              <div className="flex gap-1" role="group" aria-label="Months shown">
                {spans.map((span) => (
                  <Button key={span} size="sm" variant={span === months ? "secondary" : "ghost"} className="h-8 px-2 text-xs" aria-pressed={span === months} onClick={() => setMonths(span)}>
                    {span} months
                  </Button>
                ))}
              </div>
              <CsvLink report="sales" options={{ months: String(months) }} />
            </>
          }
        />
        <ReportState what="sales" error={error} loading={!data} fetching={isFetching}>
          <div className="h-64 px-2 pt-4 pb-2" data-testid="sales-chart">
            <ResponsiveContainer width="100%" height="100%">
              <ComposedChart data={chartPoints(rows)} margin={{ left: 8, right: 12, top: 4, bottom: 0 }}>
                <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" vertical={false} />
                <XAxis dataKey="month" tick={axisTick} tickLine={false} axisLine={false} minTickGap={12} />
                <YAxis tick={axisTick} tickLine={false} axisLine={false} width={64} tickFormatter={formatAxisEuro} />
                <Tooltip {...tooltipStyle} cursor={{ fill: "var(--muted)" }} formatter={(value, name) => [formatEuro(Number(value)), seriesLabels[String(name)] ?? String(name)]} />
                <Legend formatter={(name: string) => seriesLabels[name] ?? name} wrapperStyle={{ fontSize: 11 }} />
                {salesChannels.map((channel) => (
                  <Bar key={channel} dataKey={channel} name={channel} stackId="revenue" fill={channelColours[channel]} barSize={18} isAnimationActive={false} />
                ))}
                <Line type="monotone" dataKey="margin" name="margin" stroke="var(--color-emerald-600, #059669)" strokeWidth={2} dot={false} isAnimationActive={false} />
              </ComposedChart>
            </ResponsiveContainer>
          </div>
          <div className="border-t md:overflow-x-auto">
            <AdminTable data-testid="sales-table" className={cn(stackedTable, "md:text-[13px] [&_td]:whitespace-nowrap md:[&_td]:px-2 md:[&_th]:px-2")}>
              <AdminTableHeader>
                <tr>
                  {["Month", "Channel"].map((label) => (
                    <AdminTableHead key={label}>{label}</AdminTableHead>
                  ))}
                  {["Orders", "Pieces", "Revenue", "Shipping", "Cost", "No cost", "Fees", "Labels", "Refunds", "Margin"].map((label) => (
                    <AdminTableHead key={label} className="text-right">
                      {label}
                    </AdminTableHead>
                  ))}
                </tr>
              </AdminTableHeader>
              <AdminTableBody>
                {shown.length === 0 ? (
                  <AdminTableRow>
                    <AdminTableCell colSpan={12} className="h-24 text-center text-muted-foreground">
                      No orders were paid in these months.
                    </AdminTableCell>
                  </AdminTableRow>
                ) : null}
                {shown.map((row, index) => (
                  <AdminTableRow key={`${row.month}-${row.channel}`} data-testid={`sales-${row.month}-${row.channel}`}>
                    <AdminTableCell className="font-medium">
                      {index > 0 && shown[index - 1]!.month === row.month ? <span className="md:hidden">{formatMonth(row.month)}</span> : formatMonth(row.month)}
                    </AdminTableCell>
                    <AdminTableCell data-label="Channel">
                      <AdminBadge tone={badgeTone[row.channel]}>{channelLabels[row.channel]}</AdminBadge>
                    </AdminTableCell>
                    <AdminTableCell data-label="Orders" className="text-right tabular-nums">
                      {formatCount(row.orders)}
                    </AdminTableCell>
                    <AdminTableCell data-label="Pieces" className="text-right tabular-nums">
                      {formatCount(row.pieces)}
                    </AdminTableCell>
                    <AdminTableCell data-label="Revenue" className="text-right tabular-nums">
                      <Money value={row.revenue} whole />
                    </AdminTableCell>
                    <AdminTableCell data-label="Shipping" className="text-right tabular-nums">
                      <Money value={row.shipping} whole />
                    </AdminTableCell>
                    <AdminTableCell data-label="Purchase cost" className="text-right tabular-nums" title={row.purchaseCostPhp.isZero() ? undefined : formatPeso(row.purchaseCostPhp)}>
                      <Money value={row.purchaseCost} negative whole />
                    </AdminTableCell>
                    <AdminTableCell data-label="Unknown cost" className={cn("text-right tabular-nums", row.unknownCostPieces > 0 ? "text-amber-700 dark:text-amber-400" : "text-muted-foreground")}>
                      {row.unknownCostPieces > 0 ? `${formatCount(row.unknownCostPieces)} pcs` : "—"}
                    </AdminTableCell>
                    <AdminTableCell data-label="Fees" className="text-right tabular-nums">
                      <Money value={row.providerFees} negative whole />
                    </AdminTableCell>
                    <AdminTableCell data-label="Labels" className="text-right tabular-nums">
                      <Money value={row.labelCost} negative whole />
                    </AdminTableCell>
                    <RefundsCell value={row.refunds} whole />
                    <MarginCell value={row.margin} whole />
                  </AdminTableRow>
                ))}
              </AdminTableBody>
            </AdminTable>
          </div>
          <UnknownCostNote pieces={unknown} valued="sold" />
        </ReportState>
      </AdminCard>
    </div>
  );
}
