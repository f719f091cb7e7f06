import { date, index, integer, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { money, timestamps } from "./columns";
import { salesChannel } from "./enums";
import { order } from "./orders";
import { productReference } from "./catalogue";

/*
 * The owner's figures, added up as orders change: written in the transaction that pays, refunds or cancels an order,
 * so a report reads a few rows per day instead of the orders. An order counts on the shop-time day it was paid, with
 * its refunds whenever they were given (as the margins always counted it); a cancelled order counts nowhere.
 */

/** The figures every rollup adds up. */
const figures = () => ({
  orders: integer().notNull().default(0),
  pieces: integer().notNull().default(0),
  /** What the lines were paid, after discounts. */
  revenue: money().notNull().default(sql`0`),
  /** The purchase cost of the pieces kept, as recorded when they left stock; pieces of unknown cost counted apart. */
  costEuro: money().notNull().default(sql`0`),
  costPhp: money().notNull().default(sql`0`),
  unknownCostPieces: integer().notNull().default(0),
  /** Refunds that gave money back. */
  refunds: money().notNull().default(sql`0`),
});

/** Per shop-time day, channel and country the order shipped to ('' when it had no address: a counter sale). */
export const salesDay = pgTable(
  "sales_day",
  {
    day: date({ mode: "string" }).notNull(),
    channel: salesChannel().notNull(),
    countryCode: text().notNull(),
    ...figures(),
    shipping: money().notNull().default(sql`0`),
    /** The payment providers' fees, the payments' and the refunds'. */
    providerFees: money().notNull().default(sql`0`),
    labelCost: money().notNull().default(sql`0`),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.day, t.channel, t.countryCode] })],
);

/**
 * The same per category of the lines' products (0: no category). `orders` counts the orders with a line in the
 * category; `refunds` the refunds of its lines (a refund of the whole order, or of shipping, names no line).
 */
export const salesDayCategory = pgTable(
  "sales_day_category",
  {
    day: date({ mode: "string" }).notNull(),
    channel: salesChannel().notNull(),
    countryCode: text().notNull(),
    categoryId: integer().notNull(),
    ...figures(),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.day, t.channel, t.countryCode, t.categoryId] }), index("sales_day_category_category_idx").on(t.categoryId, t.day)],
);

/**
 * A product's margin as the sellers report ranks it (reports/sellers.ts): what its lines were paid less what the pieces
 * kept cost and the refunds of its lines. Fees, shipping and labels belong to whole orders, not to a product. Stored,
 * so that the best and worst of a period are read from an index on it, not summed and sorted.
 */
const productMargin = () => money().generatedAlwaysAs(sql`revenue - cost_euro - refunds`);

/** Per shop-time month (its first day) and product: best and worst sellers of a month. */
export const salesMonthProduct = pgTable(
  "sales_month_product",
  {
    month: date({ mode: "string" }).notNull(),
    productId: productReference("restrict"),
    ...figures(),
    margin: productMargin(),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.month, t.productId] }),
    index("sales_month_product_product_idx").on(t.productId),
    index("sales_month_product_margin_idx").on(t.month, t.margin),
  ],
);

/**
 * The same per shop-time quarter ("2026-Q1") and year ("2026") and product: best and worst sellers of a quarter or a
 * year, as a few index reads (a year's products are 300,000 rows at a million orders).
 */
export const salesPeriodProduct = pgTable(
  "sales_period_product",
  {
    period: text().notNull(),
    productId: productReference("restrict"),
    ...figures(),
    margin: productMargin(),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.period, t.productId] }),
    index("sales_period_product_product_idx").on(t.productId),
    index("sales_period_product_margin_idx").on(t.period, t.margin),
  ],
);

/**
 * What one order adds to the three rollups now, as it was last written: a change to the order takes this share out
 * and adds its new one, so every change moves the figures by exactly its difference, whatever the change was.
 */
export const orderSalesShare = pgTable("order_sales_share", {
  orderId: integer()
    .primaryKey()
    .references(() => order.id, { onDelete: "restrict" }),
  share: jsonb().notNull(),
  ...timestamps,
});
