"use client";

import type { Decimal } from "decimal.js";
import { Download } from "lucide-react";
import { useState, type ReactNode } from "react";
import { AdminTableCell } from "@/components/ui/admin-table";
import { Button } from "@/components/ui/button";
import type { SalesChannel } from "@/lib/enums";
import { formatEuro } from "@/lib/money";
import { cn } from "@/lib/utils";
import type { ReportName } from "@/server/reports/schemas";
import { formatCount, formatWholeEuro } from "../kit/format";

// What the owner's report pages share: the CSV button, the loading and error states, and how figures read.

export const channelLabels: Record<SalesChannel, string> = { WEBSHOP: "Web shop", EBAY: "eBay", MANUAL: "Manual" };
export const channelColours: Record<SalesChannel, string> = { WEBSHOP: "var(--brass)", EBAY: "var(--primary)", MANUAL: "var(--muted-foreground)" };

/** 0.5217 as "52.2%"; a dash without a rate. */
export function formatRate(rate: Decimal | null): string {
  return rate === null ? "—" : `${rate.times(100).toDecimalPlaces(1).toFixed(1)}%`;
}

const compactEuro = new Intl.NumberFormat("en-IE", { style: "currency", currency: "EUR", notation: "compact", maximumFractionDigits: 1 });

/** A chart axis's amount: "€12M", "€950K". */
export function formatAxisEuro(value: number): string {
  return compactEuro.format(value);
}

/** Refunds given back, in red below zero; a dash when there were none. */
export function RefundsCell({ value, whole = false }: { value: Decimal; whole?: boolean }) {
  return (
    <AdminTableCell data-label="Refunds" className="text-right tabular-nums">
      {value.isZero() ? <span className="text-muted-foreground">—</span> : <span className="text-destructive">−{whole ? formatWholeEuro(value) : formatEuro(value)}</span>}
    </AdminTableCell>
  );
}

/** A margin, green when earned, red when lost. */
export function MarginCell({ value, whole = false }: { value: Decimal; whole?: boolean }) {
  return (
    <AdminTableCell data-label="Margin" className={cn("text-right font-semibold tabular-nums", value.isNegative() ? "text-destructive" : "text-emerald-700 dark:text-emerald-400")}>
      {whole ? formatWholeEuro(value) : formatEuro(value)}
    </AdminTableCell>
  );
}

/** The first rows of a long list (a shop's boxes over the years), with a button that shows the rest. */
export function useFirstRows<T>(rows: readonly T[], count: number): { shown: readonly T[]; more: ReactNode } {
  const [all, setAll] = useState(false);
  if (all || rows.length <= count) return { shown: rows, more: null };
  return {
    shown: rows.slice(0, count),
    more: (
      <div className="border-t px-4 py-2 text-center">
        <Button variant="ghost" size="sm" className="h-8 text-xs" onClick={() => setAll(true)}>
          Show all {formatCount(rows.length)}
        </Button>
      </div>
    ),
  };
}

/** The accountant's CSV of a report, with the options the page shows (`?months=24`). */
export function CsvLink({ report, options = {} }: { report: ReportName; options?: Record<string, string> }) {
  const query = new URLSearchParams({ report, ...options });
  return (
    <Button asChild size="sm" variant="outline" className="h-8">
      <a href={`/admin/reports/export?${query.toString()}`} download>
        <Download /> CSV
      </a>
    </Button>
  );
}

/** A report's body: an error that says what failed, a placeholder while the first answer loads, then the report. */
export function ReportState({ what, error, loading, fetching, children }: { what: string; error: { message: string } | null; loading: boolean; fetching?: boolean; children: ReactNode }) {
  if (error) return <p className="px-4 py-6 text-sm text-destructive">The {what} could not load: {error.message}</p>;
  if (loading) return <div className="m-4 h-48 animate-pulse rounded-md bg-muted/50" aria-busy="true" />;
  return <div className={cn("transition-opacity", fetching && "opacity-60")}>{children}</div>;
}

/** The note under figures whose cost misses pieces of unknown cost. */
export function UnknownCostNote({ pieces, valued }: { pieces: number; valued: "sold" | "in stock" }) {
  if (pieces === 0) return null;
  const text =
    valued === "sold"
      ? `${formatCount(pieces)} sold piece${pieces === 1 ? " has" : "s have"} no known purchase cost: not in the purchase cost, so the margin is too high by what they cost.`
      : `${formatCount(pieces)} piece${pieces === 1 ? "" : "s"} in stock ${pieces === 1 ? "has" : "have"} no known cost (found by a correction, or older stock): counted, but not in the value.`;
  return <p className="border-t px-4 py-2 text-[11px] text-amber-700 dark:text-amber-400">* {text}</p>;
}

/** A share as a bar behind its figure: the sell-through rate at a glance. */
export function RateBar({ rate }: { rate: Decimal | null }) {
  const width = rate === null ? 0 : Math.min(100, Math.max(0, rate.times(100).toNumber()));
  return (
    <span className="inline-flex items-center gap-2">
      <span className="hidden h-1.5 w-20 overflow-hidden rounded-full bg-muted sm:inline-block" aria-hidden="true">
        <span className="block h-full rounded-full bg-brass" style={{ width: `${width}%` }} />
      </span>
      <span className="tabular-nums">{formatRate(rate)}</span>
    </span>
  );
}
