import { Decimal } from "decimal.js";
import { customType, text, timestamp } from "drizzle-orm/pg-core";

/**
 * A `numeric` column read and written as `Decimal`, so that money never passes through a JS float.
 * Money uses the default (12, 2); fractions such as percent discounts and surcharges use a larger scale.
 */
export const decimal = customType<{
  data: Decimal;
  driverData: string;
  config: { precision?: number; scale?: number };
}>({
  dataType(config) {
    return `numeric(${config?.precision ?? 12}, ${config?.scale ?? 2})`;
  },
  toDriver(value) {
    return new Decimal(value).toFixed();
  },
  fromDriver(value) {
    return new Decimal(value);
  },
});

export const money = (name?: string) => (name ? decimal(name, { precision: 12, scale: 2 }) : decimal({ precision: 12, scale: 2 }));
export const fraction = () => decimal({ precision: 12, scale: 4 });

/** createdAt and updatedAt, both with time zone; updatedAt follows every update made through Drizzle. */
export const timestamps = {
  createdAt: timestamp({ withTimezone: true, mode: "date" }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true, mode: "date" })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
};

/** The postal address fields shared by the address book and an order's address (each adds its own e-mail rule). */
export const addressColumns = () => ({
  firstName: text().notNull(),
  lastName: text().notNull(),
  companyName: text(),
  postCode: text().notNull(),
  city: text().notNull(),
  houseNumber: text().notNull(),
  street: text().notNull(),
  phoneNumber: text(),
  country: text().notNull(),
  countryCode: text().notNull(),
  addressLine2: text(),
  stateCode: text(),
  state: text(),
});
