import type { Decimal } from "decimal.js";
import { z } from "zod";
import type { ItemType, OrderStatus } from "@/lib/enums";
import type { LogbookRow } from "@/server/logbook/schemas";
import type { MonthlyMargin } from "@/server/margins/schemas";

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
  /** What customers paid for items after every discount, of orders paid in the period and not cancelled. */
  revenue: Decimal;
  /** Refunds given in the period (money gone back or on its way) on orders that are not cancelled, and their sum. */
  refunds: number;
  refunded: Decimal;
  /** `revenue` less `refunded`. */
  revenueAfterRefunds: Decimal;
  /** What the pieces the customers kept cost to buy, first bought, first sold, as recorded when they left stock. */
  purchaseCost: Decimal;
  /** `revenue` less `purchaseCost`. */
  grossMargin: Decimal;
  /** Margin as a share of revenue; null without revenue. */
  marginRate: Decimal | null;
  /** Sold pieces with no purchase left to take their cost from: unknown, and not in `purchaseCost`. */
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

/** The dashboard's margin table: how many months back, this one included. */
export const dashboardMarginsInput = z.object({ months: z.number().int().min(1).max(12).default(3) });
export type DashboardMarginsInput = z.input<typeof dashboardMarginsInput>;

/** Margin per month (shop time) and channel, oldest month first, a row for each channel in every month. */
export type DashboardMargins = { months: MonthlyMargin[] };
