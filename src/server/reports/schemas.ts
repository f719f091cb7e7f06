import type { Decimal } from "decimal.js";
import { z } from "zod";
import type { BoxStatus } from "@/lib/enums";
import { listPageInput } from "@/lib/list-page";
import type { ChannelMonthMargin } from "@/server/margins/schemas";

/*
 * The owner's reports (`admin.reports.*`): what a dealer who buys in boxes asks of the books. Staff only: every one
 * shows cost prices. Read from the rollups (`sales_day`, `sales_month_product`, `sales_period_product`), what the lots
 * hold per category and box (`stock_holding`) and the lots themselves (`stock_lot`, aged stock), so each costs the
 * same at ten orders or a million.
 */


export const salesReportInput = z.object({ months: z.union([z.literal(12), z.literal(24)]).default(12) });
export type SalesReportInput = z.input<typeof salesReportInput>;

/** The orders paid in one month (shop time) through one channel, and what they earned (`marginOf`). */
export type SalesMonth = ChannelMonthMargin;

export type SalesReport = { months: SalesMonth[] };

/** Pieces in stock and what they cost; pieces of unknown cost are counted, never valued at zero. */
export type StockValue = {
  pieces: number;
  valueEuro: Decimal;
  valuePhp: Decimal;
  unknownCostPieces: number;
};

export type StockValueByCategory = StockValue & { categoryId: number | null; category: string };
export type StockValueByBox = StockValue & { boxId: number | null; boxStatus: BoxStatus | null; boxCreatedAt: Date | null };

export type StockValuation = { total: StockValue; categories: StockValueByCategory[]; boxes: StockValueByBox[] };

/** How long pieces have been in stock, as the owner groups them. */
export const ageBuckets = [
  { key: "0-30", label: "0–30 days", upTo: 30 },
  { key: "31-90", label: "31–90 days", upTo: 90 },
  { key: "91-180", label: "91–180 days", upTo: 180 },
  { key: "181-365", label: "181–365 days", upTo: 365 },
  { key: "over-365", label: "Over a year", upTo: null },
] as const;
export type AgeBucketKey = (typeof ageBuckets)[number]["key"];

export type AgeBucket = StockValue & { key: AgeBucketKey; label: string; lots: number };

/** One lot with pieces left, oldest first. */
export type AgedLot = {
  lotId: number;
  productId: number;
  productName: string;
  boxId: number | null;
  bookedAt: Date;
  daysInStock: number;
  piecesLeft: number;
  /** Null when the lot's cost is unknown (pieces found by a correction, older stock without a purchase). */
  unitCostEuro: Decimal | null;
  valueEuro: Decimal | null;
};

export const agedStockInput = z.object({ ...listPageInput.shape });
export type AgedStockInput = z.input<typeof agedStockInput>;

export type AgedStock = { buckets: AgeBucket[]; lots: AgedLot[]; totalLots: number; page: number; pageSize: number };

/** Of the pieces received, how many were sold, written off and left. */
export type SellThrough = {
  received: number;
  sold: number;
  /** Taken by a correction: lost, damaged or miscounted. */
  writtenOff: number;
  left: number;
  /** sold / received; null when nothing was received. */
  rate: Decimal | null;
};

export type SellThroughByCategory = SellThrough & { categoryId: number | null; category: string };
export type SellThroughByBox = SellThrough & { boxId: number | null; boxStatus: BoxStatus | null; boxCreatedAt: Date | null };
export type SellThroughReport = { categories: SellThroughByCategory[]; boxes: SellThroughByBox[] };

/**
 * A period the owner looks at sellers over: a shop-time month ("2026-03"), quarter ("2026-Q1") or calendar year
 * ("2026"), the current one or a past one.
 */
export const sellersPeriod = z.string().regex(/^\d{4}(-(0[1-9]|1[0-2])|-Q[1-4])?$/, "a month (YYYY-MM), a quarter (YYYY-Q1) or a year (YYYY)");
export type SellersPeriod = z.infer<typeof sellersPeriod>;

export const sellersInput = z.object({ period: sellersPeriod, limit: z.number().int().min(1).max(100).default(20) });
export type SellersInput = z.input<typeof sellersInput>;

/** What one product's lines earned over the period: revenue less their purchase cost and the refunds of them. */
export type Seller = {
  productId: number;
  productName: string;
  orders: number;
  pieces: number;
  revenue: Decimal;
  purchaseCost: Decimal;
  unknownCostPieces: number;
  refunds: Decimal;
  margin: Decimal;
};

export type Sellers = { period: string; best: Seller[]; worst: Seller[] };

/** The reports the accountant downloads as CSV, by the name their address uses. */
export const reportNames = ["sales", "stock-value", "aged-stock", "sell-through", "sellers"] as const;
export type ReportName = (typeof reportNames)[number];
