import { Decimal } from "decimal.js";
import { z } from "zod";
import { amountInput } from "@/lib/amount-input";
import { shippingMethods, type DeliveryMethod } from "@/lib/enums";
import { lineText } from "@/lib/text";
import type { SurchargeBand } from "@/lib/surcharge";

/**
 * The value the shipping rules look at: what the goods in the parcel are worth, after discounts and without
 * shipping. It decides whether untracked post is allowed and which surcharge band applies.
 */
export const orderValue = amountInput
  .refine((value) => value.greaterThanOrEqualTo(0), "must not be negative")
  .refine((value) => value.decimalPlaces() <= 2, "must have at most two decimals");

/** A calendar day, YYYY-MM-DD. */
export const calendarDay = z.iso.date("must be a date (YYYY-MM-DD)");

/** A state or province as the shipping rules name it (NY, ON, NSW); the checkout's schemas take the same. */
export const regionCode = z.string().trim().regex(/^[A-Za-z0-9]{1,3}$/, "must be a state or province code");

/** A country as the shipping rules name it: its two-letter code, in capitals however it was typed. */
export const countryCode = z.string().trim().regex(/^[A-Za-z]{2}$/, "must be a two-letter country code").transform((code) => code.toUpperCase());

export const shippingOptionsInput = z.object({
  countryCode,
  /** The state or province, for countries that have them (United States, Canada, Australia). */
  regionCode: regionCode.transform((code) => code.toUpperCase()).optional(),
  orderValue,
  /**
   * YYYY-MM-DD: the parcel is not to leave before this day (a manual order the customer wants later). The shipping
   * date is then the first shipping day on or after it, or this day itself when the calendar is not planned so far.
   */
  notBefore: calendarDay.optional(),
});
export type ShippingOptionsInput = z.input<typeof shippingOptionsInput>;

export const shippingQuoteInput = shippingOptionsInput.extend({ method: z.enum(shippingMethods) });
export type ShippingQuoteInput = z.input<typeof shippingQuoteInput>;

/**
 * What shipping to a destination costs and takes, as its country stores it (a region may lower the untracked limit):
 * each method's price before the surcharge and its delivery days, and the order value above which a parcel must go
 * tracked.
 */
export type ShippingRates = {
  untrackedCost: Decimal;
  tntCost: Decimal;
  untrackedEtaDays: number;
  tntEtaDays: number;
  maxOrderUntracked: Decimal;
};

/** Where a parcel goes, by code and by name; the region only in countries that have states or provinces. */
export type ShippingPlace = {
  countryCode: string;
  countryName: string;
  regionCode: string | null;
  regionName: string | null;
};

/** One way to send the parcel, with what it costs and when it should arrive. */
export type ShippingOption = {
  method: DeliveryMethod;
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

export type ShippingOptions = ShippingPlace & {
  orderValue: Decimal;
  /** Above this order value the parcel must go tracked. */
  maxOrderUntracked: Decimal;
  surchargeBand: SurchargeBand | null;
  /** YYYY-MM-DD, the next shipping day from the calendar (on or after `notBefore`); null when none is planned. */
  estimatedShippingDate: string | null;
  options: ShippingOption[];
};

/** The chosen method's price and dates, as an order records them, and the destination's names for its address. */
export type ShippingQuote = ShippingOption & ShippingPlace & { estimatedShippingDate: string | null };

/** A country the shop ships to, for the checkout's address form. */
export type ShippingCountry = {
  code: string;
  name: string;
  phoneCode: string;
  eu: boolean;
  /** The states or provinces to choose from; empty when the country has none. */
  regions: { code: string; name: string }[];
};

// The shipping calendar (`calendar.ts`).

/** The longest range one calendar request lists: a year and a bit, enough for any screen. */
export const MAX_CALENDAR_RANGE_DAYS = 400;

const daysBetween = (from: string, to: string) => (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000;

export const shippingCalendarRangeInput = z
  .object({ from: calendarDay, to: calendarDay })
  .refine((range) => range.from <= range.to, { path: ["to"], message: "must not be before the start" })
  .refine((range) => daysBetween(range.from, range.to) <= MAX_CALENDAR_RANGE_DAYS, { path: ["to"], message: `must be at most ${MAX_CALENDAR_RANGE_DAYS} days after the start` });
export type ShippingCalendarRangeInput = z.input<typeof shippingCalendarRangeInput>;

export const shippingDayInput = z.object({ date: calendarDay });
export type ShippingDayInput = z.input<typeof shippingDayInput>;

/** A day the shop closes, beyond weekends and public holidays, with why (the calendar shows it). */
export const closingDayInput = z.object({ date: calendarDay, reason: lineText("The reason").min(1, "must say why the shop is closed").max(120) });
export type ClosingDayInput = z.input<typeof closingDayInput>;

/** A day on which nothing ships though it may be in the calendar: a Dutch public holiday, or a closing day staff added. */
export type ClosedDay = { date: string; reason: string; kind: "holiday" | "closing" };

/** The shipping days in the range asked for, and what staff plan around them. */
export type ShippingCalendarView = z.output<typeof shippingCalendarRangeInput> & {
  /** Today in the shop's time zone (YYYY-MM-DD): days before it are history and cannot change. */
  today: string;
  /** The day an order paid now leaves (today's cut-off counted); null when none is planned. */
  nextShippingDay: string | null;
  /** The shipping days from `from` to `to`, in order; a closed day is never one. */
  days: string[];
  /** The public holidays and closing days from `from` to `to`, in order. */
  closed: ClosedDay[];
  /** The next shipping days from today on, whatever the range: the list beside the month. */
  upcoming: string[];
  /** Orders not yet shipped that are planned to leave on a day of the range, by day. */
  plannedOrders: { date: string; count: number }[];
};

/** What a calendar change did to the orders waiting to ship. */
export type ShipmentReplan = {
  /** Future shipments whose day has come: now PAID_READY_TO_SHIP. */
  released: string[];
  /** Orders whose estimated shipping (and delivery) date moved to follow the calendar. */
  moved: string[];
};

export type ShippingDayChange = {
  date: string;
  /** False when the day was already so (added twice, or removed when it was not a shipping day). */
  changed: boolean;
  nextShippingDay: string | null;
  replan: ShipmentReplan;
};
