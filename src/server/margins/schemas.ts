import type { Decimal } from "decimal.js";
import type { OrderStatus, SalesChannel, Shop } from "@/lib/enums";
import type { OrderLine } from "@/server/orders/order-line";
import type { OrderTotals } from "@/server/orders/schemas";

/**
 * What an order earned (order-margin.ts): what the customer paid, less what its pieces cost to buy (first bought, first
 * sold: fifo.ts), the payment provider's fees, the label and the refunds given. Staff only: it shows cost prices.
 */

/** One line of an order with the purchase cost of the pieces the customer kept. */
export type OrderMarginLine = OrderLine & {
  /** What the customer paid for the whole line, after every discount. */
  paid: Decimal;
  /** Pieces a refund put back in stock: they count as never sold and cost the order nothing. */
  restockedPieces: number;
  /** FIFO purchase cost of the kept pieces whose purchase is known, in euro (what counts) and in peso. */
  purchaseCost: Decimal;
  purchaseCostPhp: Decimal;
  /** Kept pieces sold when no purchase was left to take them from: their cost is unknown and not in `purchaseCost`. */
  unknownCostPieces: number;
};

export type OrderMargin = {
  orderId: number;
  orderNumber: string;
  status: OrderStatus;
  shop: Shop;
  soldAt: Date | null;
  /** False for an order never paid, or cancelled: it sold nothing, so it has no margin. */
  sold: boolean;
  totals: OrderTotals;
  /** What the customer paid: items after discounts, shipping and surcharge (`totals.total`). */
  paid: Decimal;
  purchaseCost: Decimal;
  purchaseCostPhp: Decimal;
  unknownCostPieces: number;
  restockedPieces: number;
  /** The payment provider's fees for the payment and for the refunds that gave money back. */
  providerFees: Decimal;
  labelCost: Decimal;
  /** Refunds that gave money back or are on their way (PENDING, REFUNDED); a FAILED one gave nothing back. */
  refunds: Decimal;
  /** paid - purchaseCost - providerFees - labelCost - refunds; null when the order sold nothing. */
  margin: Decimal | null;
  lines: OrderMarginLine[];
};

/** What the orders paid in one month (shop time) through one sales channel (web shop, eBay, manual) earned. */
export type ChannelMonthMargin = {
  /** "2026-03". */
  month: string;
  channel: SalesChannel;
  orders: number;
  pieces: number;
  /** What customers paid for items after every discount: the dashboard's revenue. */
  revenue: Decimal;
  /** Shipping and surcharge charged. */
  shipping: Decimal;
  /** What the pieces kept cost to buy, as recorded when they left stock; in euro (what counts) and peso. */
  purchaseCost: Decimal;
  purchaseCostPhp: Decimal;
  /** Pieces sold whose cost is unknown: not in `purchaseCost`, so the margin is that much too high. */
  unknownCostPieces: number;
  /** The payment provider's fees for these orders' payments and refunds. */
  providerFees: Decimal;
  labelCost: Decimal;
  /** Refunds given on these orders, whenever they were given. */
  refunds: Decimal;
  /** revenue + shipping - purchaseCost - providerFees - labelCost - refunds (`marginOf`). */
  margin: Decimal;
};

/** The same per shop, as the dashboard shows it: the web shop's holds the manual channel too. */
export type MonthlyMargin = Omit<ChannelMonthMargin, "channel" | "pieces"> & { shop: Shop };
