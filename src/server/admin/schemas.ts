import type { Decimal } from "decimal.js";
import { z } from "zod";
import type { ItemType, OrderStatus } from "@/lib/enums";
import { text } from "@/lib/text";
import type { LogbookRow } from "@/server/logbook/schemas";

/** SPEC section 2's sidebar counts. Logbook counts are what the signed-in staff member has not read yet. */
export type SidebarInformation = {
  orders: { pending: number; paidReady: number; paidFuture: number; processed: number };
  logbook: { totalCount: number; warningCount: number; errorCount: number };
  boxes: { open: number; shipped: number };
  restock: { pending: number };
};

/** SPEC section 3's bulk marketplace progress; `progress` is null while no bulk update runs. */
export type BulkOfferProgress = {
  progress: {
    /** A whole percentage as text, as the marketplace job reports it. */
    currentPercent: string;
    estimatedTimeToCompletion: string | null;
    currentCount: number;
    totalCount: number;
  } | null;
};

export type DashboardPeriod = {
  key: "today" | "7d" | "30d";
  label: string;
  orders: number;
  revenue: Decimal;
  /** What the sold pieces cost to buy, from their purchase records' average unit cost. */
  purchaseCost: Decimal;
  grossMargin: Decimal;
  /** Margin as a share of revenue; null without revenue. */
  marginRate: Decimal | null;
  /** Sold pieces whose product has no purchase record, so their cost is unknown (counted as zero). */
  piecesWithoutCost: number;
};

export type DashboardDay = { date: string; revenue: Decimal; orders: number };

export type DashboardLowStock = { id: number; name: string; stock: number; incoming: number; itemType: ItemType | null };

export type Dashboard = {
  periods: DashboardPeriod[];
  days: DashboardDay[];
  waiting: { status: OrderStatus; count: number }[];
  lowStock: DashboardLowStock[];
  problems: LogbookRow[];
  stock: { productsOnline: number; soldOut: number; piecesInStock: number; stockValue: Decimal; boxesOnTheWay: number };
};

export const bucketListInput = z.object({
  /** A folder: empty for the top, otherwise ending with a slash. */
  prefix: text()
    .trim()
    .max(512)
    .refine((value) => value === "" || value.endsWith("/"), "must be empty or end with /")
    .default(""),
});
export const bucketDeleteInput = z.object({ key: text().min(1).max(1024) });

export type BucketListing = {
  prefix: string;
  folders: { name: string; prefix: string; objects: number }[];
  files: { key: string; name: string; size: number; updatedAt: Date; url: string; contentType: string }[];
  /** True when the folder holds more files than are listed. */
  truncated: boolean;
};
