import { relations } from "drizzle-orm";
import { boolean, date, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { fraction, money, timestamps } from "./columns";

/** A destination country with its two shipping methods' cost and delivery time. */
export const country = pgTable(
  "country",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    phoneCode: text().notNull(),
    code: text().notNull(),
    name: text().notNull(),
    untrackedCost: money().notNull(),
    tntCost: money().notNull(),
    untrackedEtaDays: integer().notNull(),
    tntEtaDays: integer().notNull(),
    /** Orders above this value must ship tracked. */
    maxOrderUntracked: money().notNull(),
    active: boolean().notNull().default(true),
    eu: boolean().notNull().default(false),
    ...timestamps,
  },
  (t) => [uniqueIndex("country_code_unique").on(t.code), index("country_active_idx").on(t.active, t.name)],
);

/** A state or province inside a country, with its own untracked limit where it differs. */
export const region = pgTable(
  "region",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    code: text().notNull(),
    name: text().notNull(),
    active: boolean().notNull().default(true),
    maxOrderUntracked: money(),
    countryId: integer()
      .notNull()
      .references(() => country.id, { onDelete: "cascade" }),
    ...timestamps,
  },
  (t) => [uniqueIndex("region_country_code_unique").on(t.countryId, t.code)],
);

/** A band of order values that adds a percentage (a fraction, 0.05) to shipping, for insurance of valuable parcels. */
export const shippingSurcharge = pgTable(
  "shipping_surcharge",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    minPrice: money().notNull(),
    maxPrice: money().notNull(),
    percentage: fraction().notNull(),
    ...timestamps,
  },
  (t) => [index("shipping_surcharge_range_idx").on(t.minPrice, t.maxPrice)],
);

/** The days on which parcels go out. */
export const shippingCalendar = pgTable(
  "shipping_calendar",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    shortDate: date({ mode: "string" }).notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex("shipping_calendar_short_date_unique").on(t.shortDate)],
);

/**
 * A day on which the shop sends nothing out, beyond weekends and the Dutch public holidays (which the shipping
 * calendar knows by itself): a holiday of the owner's, a stock-taking day.
 */
export const shopClosingDay = pgTable(
  "shop_closing_day",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    shortDate: date({ mode: "string" }).notNull(),
    reason: text().notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex("shop_closing_day_short_date_unique").on(t.shortDate)],
);

export const countryRelations = relations(country, ({ many }) => ({
  regions: many(region),
}));

export const regionRelations = relations(region, ({ one }) => ({
  country: one(country, { fields: [region.countryId], references: [country.id] }),
}));
