"use client";

import { AlertTriangle, ArrowUpRight, CircleAlert, PackageOpen, Truck } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { Area, AreaChart, Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { AdminBadge } from "@/components/ui/admin-badge";
import { AdminCard, AdminCardHeader } from "@/components/ui/admin-card";
import { AdminTable, AdminTableBody, AdminTableCell, AdminTableHead, AdminTableHeader, AdminTableRow } from "@/components/ui/admin-table";
import { Button } from "@/components/ui/button";
import type { Shop } from "@/lib/enums";
import { cn } from "@/lib/utils";
import type { Dashboard } from "@/server/admin/schemas";
import type { MonthlyMargin } from "@/server/margins/schemas";
import { formatEuro } from "@/lib/money";
import { formatCount, formatDateTime, formatPeso, humanize } from "../kit/format";
import { useDashboard, useDashboardMargins } from "./queries";

const waitingLinks: Record<string, { label: string; href: string }> = {
  PENDING: { label: "Pending", href: "/admin/orders/status/pending" },
  PAID_READY_TO_SHIP: { label: "Ready to ship", href: "/admin/orders/status/paid_ready_to_ship" },
  PAID_FUTURE_SHIPMENT: { label: "Future shipments", href: "/admin/orders/status/paid_future_shipment" },
  PROCESSED: { label: "Processed", href: "/admin/orders/status/processed" },
};

function percent(rate: Dashboard["periods"][number]["marginRate"]): string {
  return rate === null ? "—" : `${rate.times(100).toDecimalPlaces(1).toFixed(1)}%`;
}

function unknownCostNote(pieces: number): string {
  return `${formatCount(pieces)} sold piece${pieces === 1 ? " has" : "s have"} no purchase left to take a cost from: unknown, and not in the purchase cost.`;
}

function Kpis({ data }: { data: Dashboard }) {
  return (
    <div className="grid gap-3 lg:grid-cols-3">
      {data.periods.map((period) => (
        <AdminCard key={period.key} className="p-4">
          <div className="flex items-center justify-between">
            <p className="text-xs font-medium tracking-wide text-muted-foreground uppercase">{period.label}</p>
            <AdminBadge tone="neutral">
              {formatCount(period.orders)} order{period.orders === 1 ? "" : "s"}
            </AdminBadge>
          </div>
          <p className="mt-2 font-serif text-3xl font-semibold tabular-nums" data-testid={`revenue-${period.key}`}>
            {formatEuro(period.revenue)}
          </p>
          <p
            className="mt-1 text-xs text-muted-foreground tabular-nums"
            data-testid={`refunds-${period.key}`}
            title="Refunds given in this period (paid back or on their way) on orders that are not cancelled"
          >
            {period.refunds === 0 ? (
              "No refunds"
            ) : (
              <>
                <span className="text-destructive">Refunded {formatEuro(period.refunded)}</span> in {formatCount(period.refunds)} refund{period.refunds === 1 ? "" : "s"} ·{" "}
                {formatEuro(period.revenueAfterRefunds)} after refunds
              </>
            )}
          </p>
          <dl className="mt-3 grid grid-cols-3 gap-2 border-t pt-3 text-xs">
            <div>
              <dt className="text-muted-foreground">Purchase cost</dt>
              <dd className="mt-0.5 font-medium tabular-nums">{formatEuro(period.purchaseCost)}</dd>
            </div>
            <div>
              <dt className="text-muted-foreground">Gross margin</dt>
              <dd className={cn("mt-0.5 font-medium tabular-nums", period.grossMargin.isNegative() ? "text-destructive" : "text-emerald-700 dark:text-emerald-400")}>
                {formatEuro(period.grossMargin)}
              </dd>
            </div>
            <div>
              <dt className="text-muted-foreground">Margin</dt>
              <dd className="mt-0.5 font-medium tabular-nums">{percent(period.marginRate)}</dd>
            </div>
          </dl>
          {period.piecesWithoutCost > 0 ? (
            <p className="mt-2 text-[11px] text-amber-700 dark:text-amber-400">
              {unknownCostNote(period.piecesWithoutCost)}
            </p>
          ) : null}
        </AdminCard>
      ))}
    </div>
  );
}

const axisTick = { fontSize: 11, fill: "var(--muted-foreground)" };
const tooltipStyle = {
  contentStyle: { background: "var(--popover)", border: "1px solid var(--border)", borderRadius: 8, fontSize: 12, color: "var(--popover-foreground)" },
  labelStyle: { color: "var(--muted-foreground)" },
};

function RevenueChart({ data }: { data: Dashboard }) {
  const points = data.days.map((day) => ({ date: day.date.slice(5), revenue: day.revenue.toNumber(), orders: day.orders }));
  const empty = points.every((point) => point.orders === 0);
  return (
    <AdminCard className="lg:col-span-2">
      <AdminCardHeader title="Revenue, last 30 days" description="Paid orders by the day they were paid, after item discounts, before refunds; cancelled orders excluded." />
      <div className="relative h-64 px-2 pt-4 pb-2">
        <ResponsiveContainer width="100%" height="100%">
          <AreaChart data={points} margin={{ left: 8, right: 12, top: 4, bottom: 0 }}>
            <defs>
              <linearGradient id="revenueFill" x1="0" y1="0" x2="0" y2="1">
                <stop offset="0%" stopColor="var(--brass)" stopOpacity={0.35} />
                <stop offset="100%" stopColor="var(--brass)" stopOpacity={0.02} />
              </linearGradient>
            </defs>
            <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="date" tick={axisTick} tickLine={false} axisLine={false} interval={4} />
            <YAxis tick={axisTick} tickLine={false} axisLine={false} width={56} tickFormatter={(value: number) => `€${value}`} />
            <Tooltip {...tooltipStyle} formatter={(value) => [formatEuro(Number(value)), "Revenue"]} />
            <Area type="monotone" dataKey="revenue" stroke="var(--brass)" strokeWidth={2} fill="url(#revenueFill)" />
          </AreaChart>
        </ResponsiveContainer>
        {empty ? (
          <p className="absolute inset-0 flex items-center justify-center text-sm text-muted-foreground">
            No paid orders in the last 30 days yet.
          </p>
        ) : null}
      </div>
    </AdminCard>
  );
}

function WaitingChart({ data }: { data: Dashboard }) {
  const points = data.waiting.map((row) => ({ status: waitingLinks[row.status]?.label ?? humanize(row.status), count: row.count }));
  const total = data.waiting.reduce((sum, row) => sum + row.count, 0);
  return (
    <AdminCard>
      <AdminCardHeader title="Orders waiting" description={total ? `${total} order${total === 1 ? "" : "s"} need attention` : "Nothing is waiting."} />
      {total === 0 ? (
        <div className="flex h-40 flex-col items-center justify-center gap-1 text-center text-sm text-muted-foreground">
          <PackageOpen className="size-6 text-brass" />
          No orders are waiting to be paid, packed or shipped.
        </div>
      ) : (
      <div className="h-40 px-2 pt-3">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={points} layout="vertical" margin={{ left: 8, right: 16, top: 0, bottom: 0 }}>
            <XAxis type="number" hide allowDecimals={false} domain={[0, (max: number) => Math.max(1, max)]} />
            <YAxis type="category" dataKey="status" tick={axisTick} tickLine={false} axisLine={false} width={104} />
            <Tooltip {...tooltipStyle} cursor={{ fill: "var(--muted)" }} />
            <Bar dataKey="count" name="Orders" fill="var(--primary)" radius={[0, 4, 4, 0]} barSize={14} />
          </BarChart>
        </ResponsiveContainer>
      </div>
      )}
      <ul className="grid grid-cols-2 gap-px border-t bg-border text-xs">
        {data.waiting.map((row) => (
          <li key={row.status} className="bg-card">
            <Link href={waitingLinks[row.status]?.href ?? "/admin/orders/status/all"} className="flex items-center justify-between px-4 py-2 hover:bg-accent/50">
              <span className="text-muted-foreground">{waitingLinks[row.status]?.label}</span>
              <span className="font-semibold tabular-nums">{row.count}</span>
            </Link>
          </li>
        ))}
      </ul>
    </AdminCard>
  );
}

function LowStock({ data }: { data: Dashboard }) {
  return (
    <AdminCard>
      <AdminCardHeader
        title="Low on stock"
        description={`${formatCount(data.stock.soldOut)} of ${formatCount(data.stock.productsOnline)} products on the shop are sold out`}
        actions={
          <Link href="/admin/products/restock-manager/pending" className="inline-flex items-center gap-1 text-xs text-primary hover:underline">
            Restock manager <ArrowUpRight className="size-3" />
          </Link>
        }
      />
      <ul className="divide-y">
        {data.lowStock.length === 0 ? <li className="px-4 py-6 text-center text-sm text-muted-foreground">Everything on the shop is in stock.</li> : null}
        {data.lowStock.map((row) => (
          <li key={row.id}>
            <Link href={`/admin/products/edit?id=${row.id}&tab=stock`} className="flex items-center gap-3 px-4 py-2 hover:bg-accent/40">
              <span className="w-12 shrink-0 text-xs text-muted-foreground tabular-nums">#{row.id}</span>
              <span className="min-w-0 flex-1 truncate text-sm">{row.name}</span>
              {row.incoming > 0 ? (
                <AdminBadge tone="info">
                  <Truck className="size-3" /> {row.incoming} coming
                </AdminBadge>
              ) : null}
              <AdminBadge tone={row.stock === 0 ? "danger" : "warning"}>{row.stock === 0 ? "Sold out" : `${row.stock} left`}</AdminBadge>
            </Link>
          </li>
        ))}
      </ul>
    </AdminCard>
  );
}

function Problems({ data }: { data: Dashboard }) {
  return (
    <AdminCard>
      <AdminCardHeader
        title="Unread warnings and errors"
        description="From the logbook; opening an entry marks it read for you."
        actions={
          <Link href="/admin/logbook/level/error" className="inline-flex items-center gap-1 text-xs text-primary hover:underline">
            Logbook <ArrowUpRight className="size-3" />
          </Link>
        }
      />
      <ul className="divide-y">
        {data.problems.length === 0 ? <li className="px-4 py-6 text-center text-sm text-muted-foreground">All read. Nothing needs you right now.</li> : null}
        {data.problems.map((row) => (
          <li key={row.id}>
            <Link
              href={`/admin/logbook/level/${row.logLevel.toLowerCase()}?entry=${row.id}`}
              className="flex items-start gap-3 px-4 py-2.5 hover:bg-accent/40"
            >
              {row.logLevel === "ERROR" ? (
                <CircleAlert className="mt-0.5 size-4 shrink-0 text-destructive" />
              ) : (
                <AlertTriangle className="mt-0.5 size-4 shrink-0 text-amber-500" />
              )}
              <span className="min-w-0 flex-1">
                <span className="block truncate text-sm">{row.description}</span>
                <span className="text-[11px] text-muted-foreground">
                  {humanize(row.eventType)} · {formatDateTime(row.createdAt)}
                </span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </AdminCard>
  );
}

function StockSummary({ data }: { data: Dashboard }) {
  const items = [
    { label: "Pieces in stock", value: formatCount(data.stock.piecesInStock) },
    { label: "Stock at purchase cost", value: formatEuro(data.stock.stockValue) },
    { label: "Boxes on the way", value: formatCount(data.stock.boxesOnTheWay), href: "/admin/boxes/other" },
  ];
  return (
    <div className="grid grid-cols-3 gap-3">
      {items.map((item) => (
        <AdminCard key={item.label} className="flex items-center gap-3 px-4 py-3">
          <PackageOpen className="size-5 text-brass" />
          <div>
            <p className="text-[11px] text-muted-foreground">{item.label}</p>
            <p className="text-base font-semibold tabular-nums">
              {item.href ? (
                <Link href={item.href} className="hover:underline">
                  {item.value}
                </Link>
              ) : (
                item.value
              )}
            </p>
          </div>
        </AdminCard>
      ))}
    </div>
  );
}

const channelLabels: Record<Shop, string> = { WEBSHOP: "Web shop", EBAY: "eBay" };
const monthLabel = new Intl.DateTimeFormat("en-GB", { month: "short", year: "numeric", timeZone: "UTC" });
const spans = [3, 6, 12] as const;

/** "2026-03" as "Mar 2026". */
function formatMonth(month: string): string {
  return monthLabel.format(new Date(`${month}-01T00:00:00Z`));
}

function Money({ value, negative = false }: { value: MonthlyMargin["margin"]; negative?: boolean }) {
  if (value.isZero()) return <span className="text-muted-foreground">—</span>;
  return <>{negative ? `−${formatEuro(value)}` : formatEuro(value)}</>;
}

function Margins() {
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
          <div className="overflow-x-auto border-t">
            <AdminTable data-testid="margins-table">
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
                {[...rows].reverse().map((row) => (
                  <AdminTableRow key={`${row.month}-${row.shop}`} data-testid={`margin-${row.month}-${row.shop}`}>
                    <AdminTableCell className="whitespace-nowrap">{row.shop === "WEBSHOP" ? formatMonth(row.month) : ""}</AdminTableCell>
                    <AdminTableCell>
                      <AdminBadge tone={row.shop === "WEBSHOP" ? "brass" : "info"}>{channelLabels[row.shop]}</AdminBadge>
                    </AdminTableCell>
                    <AdminTableCell className="text-right">{formatCount(row.orders)}</AdminTableCell>
                    <AdminTableCell className="text-right">
                      <Money value={row.revenue} />
                    </AdminTableCell>
                    <AdminTableCell className="text-right">
                      <Money value={row.shipping} />
                    </AdminTableCell>
                    <AdminTableCell className="text-right" title={row.purchaseCostPhp.isZero() ? undefined : formatPeso(row.purchaseCostPhp)}>
                      <Money value={row.purchaseCost} negative />
                      {row.unknownCostPieces > 0 ? <span className="ml-1 text-amber-700 dark:text-amber-400">*</span> : null}
                    </AdminTableCell>
                    <AdminTableCell className="text-right">
                      <Money value={row.providerFees} negative />
                    </AdminTableCell>
                    <AdminTableCell className="text-right">
                      <Money value={row.labelCost} negative />
                    </AdminTableCell>
                    <AdminTableCell className="text-right">
                      {row.refunds.isZero() ? <span className="text-muted-foreground">—</span> : <span className="text-destructive">−{formatEuro(row.refunds)}</span>}
                    </AdminTableCell>
                    <AdminTableCell
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

export function DashboardView() {
  const { data, error } = useDashboard();
  if (error) return <p className="text-sm text-destructive">The dashboard could not load: {error.message}</p>;
  if (!data) {
    return (
      <div className="grid gap-3 lg:grid-cols-3" aria-busy="true">
        {Array.from({ length: 6 }, (_, index) => (
          <div key={index} className="h-36 animate-pulse rounded-lg border bg-muted/50" />
        ))}
      </div>
    );
  }
  return (
    <div className="space-y-4">
      <Kpis data={data} />
      <StockSummary data={data} />
      <div className="grid gap-4 lg:grid-cols-3">
        <RevenueChart data={data} />
        <WaitingChart data={data} />
      </div>
      <Margins />
      <div className="grid gap-4 lg:grid-cols-2">
        <LowStock data={data} />
        <Problems data={data} />
      </div>
    </div>
  );
}
