import { Decimal } from "decimal.js";
import { z } from "zod";
import { shippingMethods, type ShippingMethod } from "@/lib/enums";

/**
 * The value the shipping rules look at: what the goods in the parcel are worth, after discounts and without
 * shipping. It decides whether untracked post is allowed and which surcharge band applies.
 */
export const orderValue = z
  .union([z.instanceof(Decimal), z.string().regex(/^\d+(\.\d{1,2})?$/, "must be an amount such as 12.50"), z.number().finite()])
  .transform((value) => new Decimal(value))
  .refine((value) => value.greaterThanOrEqualTo(0), "must not be negative")
  .refine((value) => value.decimalPlaces() <= 2, "must have at most two decimals");

/** A state or province as the shipping rules name it (NY, ON, NSW); the checkout's schemas take the same. */
export const regionCode = z.string().trim().regex(/^[A-Za-z0-9]{1,3}$/, "must be a state or province code");

export const shippingOptionsInput = z.object({
  countryCode: z.string().trim().regex(/^[A-Za-z]{2}$/, "must be a two-letter country code").transform((code) => code.toUpperCase()),
  /** The state or province, for countries that have them (United States, Canada, Australia). */
  regionCode: regionCode.transform((code) => code.toUpperCase()).optional(),
  orderValue,
});
export type ShippingOptionsInput = z.input<typeof shippingOptionsInput>;

export const shippingQuoteInput = shippingOptionsInput.extend({ method: z.enum(shippingMethods) });
export type ShippingQuoteInput = z.input<typeof shippingQuoteInput>;

export type SurchargeBand = { minPrice: Decimal; maxPrice: Decimal; percentage: Decimal };

/** One way to send the parcel, with what it costs and when it should arrive. */
export type ShippingOption = {
  method: ShippingMethod;
  /** The country's price for the method. */
  baseCost: Decimal;
  /** The insurance surcharge of the order value's band (zero when no band applies). */
  surcharge: Decimal;
  /** What the customer pays for shipping: base cost plus surcharge. */
  cost: Decimal;
  etaDays: number;
  /** YYYY-MM-DD; null when the shipping calendar has no day planned. */
  estimatedDeliveryDate: string | null;
  available: boolean;
  /** Why the method cannot be chosen, in words for the customer; null when it can. */
  unavailableReason: string | null;
};

export type ShippingOptions = {
  countryCode: string;
  countryName: string;
  regionCode: string | null;
  regionName: string | null;
  orderValue: Decimal;
  /** Above this order value the parcel must go tracked. */
  maxOrderUntracked: Decimal;
  surchargeBand: SurchargeBand | null;
  /** YYYY-MM-DD, the next shipping day from the calendar; null when none is planned. */
  estimatedShippingDate: string | null;
  options: ShippingOption[];
};

/** The chosen method's price and dates, as an order records them. */
export type ShippingQuote = ShippingOption & {
  countryCode: string;
  regionCode: string | null;
  estimatedShippingDate: string | null;
};

/** A country the shop ships to, for the checkout's address form. */
export type ShippingCountry = {
  code: string;
  name: string;
  phoneCode: string;
  eu: boolean;
  /** The states or provinces to choose from; empty when the country has none. */
  regions: { code: string; name: string }[];
};
