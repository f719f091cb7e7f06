"use client";

import { AlertTriangle, ArrowUpRight, CircleAlert, PackageOpen, Truck } from "lucide-react";
import Link from "next/link";
import { Area, AreaChart, Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { AdminBadge } from "@/components/ui/admin-badge";
import { AdminCard, AdminCardHeader } from "@/components/ui/admin-card";
import { formatEuro } from "@/lib/money";
import { plural } from "@/lib/plural";
import { cn } from "@/lib/utils";
import type { Dashboard } from "@/server/admin/schemas";
import { formatCount, formatDateTime, humanize } from "../kit/format";
import { axisTick, tooltipStyle } from "./chart-style";
import { MarginsPanel, unknownCostNote } from "./margins-panel";
import { useDashboard } from "./queries";

const waitingLinks: Record<string, { label: string; href: string }> = {
  PENDING: { label: "Pending", href: "/admin/orders/status/pending" },
  PAID_READY_TO_SHIP: { label: "Ready to ship", href: "/admin/orders/status/paid_ready_to_ship" },
  PAID_FUTURE_SHIPMENT: { label: "Future shipments", href: "/admin/orders/status/paid_future_shipment" },
  PROCESSED: { label: "Processed", href: "/admin/orders/status/processed" },
};

function percent(rate: Dashboard["periods"][number]["marginRate"]): string {
  return rate === null ? "—" : `${rate.times(100).toDecimalPlaces(1).toFixed(1)}%`;
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
        description={`${formatCount(data.stock.soldOut)} of ${plural(data.stock.productsOnline, "product")} on the shop ${data.stock.soldOut === 1 ? "is" : "are"} sold out`}
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
    // Three tiles side by side leave a phone too little room for the stock's value: one under another there.
    <div className="grid gap-3 sm:grid-cols-3">
      {items.map((item) => (
        <AdminCard key={item.label} className="flex items-center gap-3 px-4 py-3">
          <PackageOpen className="size-5 shrink-0 text-brass" />
          <div className="min-w-0">
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
      <MarginsPanel />
      <div className="grid gap-4 lg:grid-cols-2">
        <LowStock data={data} />
        <Problems data={data} />
      </div>
    </div>
  );
}
