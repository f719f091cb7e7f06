import type { Decimal } from "decimal.js";
import type { ItemType, OrderStatus } from "@/lib/enums";
import type { LogbookRow } from "@/server/logbook/schemas";

/** SPEC section 2's sidebar counts. Logbook counts are what the signed-in staff member has not read yet. */
export type SidebarInformation = {
  orders: { pending: number; paidReady: number; paidFuture: number; processed: number };
  logbook: { totalCount: number; warningCount: number; errorCount: number };
  boxes: { open: number; shipped: number };
  restock: { pending: number };
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
