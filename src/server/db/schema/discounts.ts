import { sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { fraction, money, timestamps } from "./columns";
import { discountType, pricingType } from "./enums";

/**
 * A discount of one of four kinds (PRODUCT, GLOBAL, USER, COUPON). `value` is a fraction (0.15) for PERCENT and a
 * euro amount for FIXED. For a COUPON the name is the code customers type.
 */
export const discount = pgTable(
  "discount",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    name: text().notNull(),
    active: boolean().notNull().default(true),
    value: fraction().notNull(),
    discountType: discountType().notNull(),
    startsAt: timestamp({ withTimezone: true, mode: "date" }),
    expiresAt: timestamp({ withTimezone: true, mode: "date" }),
    pricingType: pricingType().notNull(),
    /** A COUPON's smallest cart (after product discounts) it applies to; null for any cart. */
    minOrderValue: money(),
    /** How many orders may use a COUPON at the most; null for no limit. */
    usageLimit: integer(),
    ...timestamps,
  },
  (t) => [
    index("discount_type_active_idx").on(t.discountType, t.active),
    index("discount_name_idx").on(t.name),
    check("discount_usage_limit_positive", sql`${t.usageLimit} is null or ${t.usageLimit} > 0`),
  ],
);
