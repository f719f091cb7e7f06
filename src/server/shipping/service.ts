import "server-only";
import { Decimal } from "decimal.js";
import { asc, eq } from "drizzle-orm";
import type { DeliveryMethod, ShippingMethod } from "@/lib/enums";
import { formatEuro } from "@/lib/money";
import { shopWallTime, wallTimeDay } from "@/lib/shop-clock";
import { surchargeAmount, surchargeBandFor, type SurchargeBand } from "@/lib/surcharge";
import type { Db } from "@/server/db/client";
import { country, region, shippingSurcharge } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { openShippingDays } from "./closed-days";
import {
  shippingOptionsInput,
  shippingQuoteInput,
  type ShippingCountry,
  type ShippingOption,
  type ShippingOptions,
  type ShippingOptionsInput,
  type ShippingQuote,
  type ShippingQuoteInput,
  type ShippingPlace,
  type ShippingRates,
} from "./schemas";

/**
 * Shipping rules over the seeded settings: which methods a destination allows for an order value, what each costs
 * and when the parcel should leave and arrive. The rules are pure functions; the exported service functions read
 * the tables and apply them.
 */


/**
 * Orders paid after this hour (shop time) miss today's post run, so they ship on the next shipping day even when
 * today is one.
 */
export const SHIPPING_CUTOFF_HOUR = 14;

/** Today's date (YYYY-MM-DD) and the hour, in the shop's time zone. */
export function shopDateAndHour(now: Date): { date: string; hour: number } {
  const wall = shopWallTime(now);
  return { date: wallTimeDay(wall), hour: wall.hour };
}

/**
 * The first day in the calendar on which an order placed `now` can leave: today if today is a shipping day and the
 * cut-off has not passed, otherwise the next one. Null when the calendar has no such day planned.
 */
export function nextShippingDay(calendar: readonly string[], now: Date, cutoffHour = SHIPPING_CUTOFF_HOUR): string | null {
  const { date: today, hour } = shopDateAndHour(now);
  const earliest = [...calendar].sort().find((day) => day > today || (day === today && hour < cutoffHour));
  return earliest ?? null;
}

/**
 * The day a parcel should arrive: the shipping day plus the method's delivery days. Carriers here do not deliver on
 * Sundays, so an arrival that would fall on a Sunday is promised for the Monday.
 */
export function estimatedDeliveryDate(shippingDate: string, etaDays: number): string {
  const day = new Date(`${shippingDate}T12:00:00Z`);
  day.setUTCDate(day.getUTCDate() + etaDays);
  if (day.getUTCDay() === 0) day.setUTCDate(day.getUTCDate() + 1);
  return day.toISOString().slice(0, 10);
}

/**
 * Whether an order is a future shipment: its shipping date lies after the next shipping day, so staff should not
 * pack it with today's orders. Without a planned shipping day nothing can be said to lie beyond it.
 */
export function isFutureShipment(shippingDate: string, nextDay: string | null): boolean {
  return nextDay !== null && shippingDate > nextDay;
}

type Destination = ShippingRates & Pick<ShippingPlace, "countryName" | "regionName">;

/** Both methods for a destination and order value, priced, dated, and untracked refused above the limit. */
export function shippingOptionsFor(
  destination: Destination,
  value: Decimal,
  band: SurchargeBand | null,
  shippingDate: string | null,
): ShippingOption[] {
  const surcharge = surchargeAmount(value, band);
  const option = (method: DeliveryMethod, baseCost: Decimal, etaDays: number, unavailableReason: string | null): ShippingOption => ({
    method,
    baseCost,
    surcharge,
    cost: baseCost.plus(surcharge),
    etaDays,
    estimatedDeliveryDate: shippingDate ? estimatedDeliveryDate(shippingDate, etaDays) : null,
    available: unavailableReason === null,
    unavailableReason,
  });
  const place = destination.regionName ?? destination.countryName;
  const untrackedRefusal = value.greaterThan(destination.maxOrderUntracked)
    ? `Untracked post to ${place} is only possible for orders up to ${formatEuro(destination.maxOrderUntracked)}; please choose a tracked parcel.`
    : null;
  return [
    option("UNTRACKED", destination.untrackedCost, destination.untrackedEtaDays, untrackedRefusal),
    option("TNT", destination.tntCost, destination.tntEtaDays, null),
  ];
}

/** The shipping methods, prices and dates for a destination and order value, for the checkout to show. */
export async function getShippingOptions(db: Db, rawInput: ShippingOptionsInput, now: Date = new Date()): Promise<ShippingOptions> {
  const input = shippingOptionsInput.parse(rawInput);
  const destination = await findDestination(db, input.countryCode, input.regionCode);
  const [bands, plannedDay] = await Promise.all([readSurchargeBands(db), getNextShippingDay(db, now, input.notBefore)]);
  const shippingDate = plannedDay ?? input.notBefore ?? null;
  const band = surchargeBandFor(bands, input.orderValue);
  return {
    countryCode: input.countryCode,
    countryName: destination.countryName,
    regionCode: destination.regionCode,
    regionName: destination.regionName,
    orderValue: input.orderValue,
    maxOrderUntracked: destination.maxOrderUntracked,
    surchargeBand: band,
    estimatedShippingDate: shippingDate,
    options: shippingOptionsFor(destination, input.orderValue, band, shippingDate),
  };
}

/**
 * The price and dates of the chosen method, as the order will record them. Refuses (BAD_REQUEST, with the
 * customer's reason) a method the destination does not allow for this order value.
 */
export async function quoteShipping(db: Db, rawInput: ShippingQuoteInput, now: Date = new Date()): Promise<ShippingQuote> {
  const input = shippingQuoteInput.parse(rawInput);
  return chooseShippingOption(await getShippingOptions(db, input, now), input.method);
}

/** One method of a destination's options, as an order records it; refuses (BAD_REQUEST) one it does not allow. */
export function chooseShippingOption(options: ShippingOptions, method: ShippingMethod): ShippingQuote {
  const chosen = options.options.find((option) => option.method === method);
  if (!chosen) throw new AppError("BAD_REQUEST", `Unknown shipping method ${method}`);
  if (!chosen.available) throw new AppError("BAD_REQUEST", chosen.unavailableReason ?? `${method} is not available`);
  const { countryCode, countryName, regionCode, regionName, estimatedShippingDate } = options;
  return { ...chosen, countryCode, countryName, regionCode, regionName, estimatedShippingDate };
}

/**
 * The next shipping day from the calendar for an order placed `now`, or the first one on or after `notBefore` when
 * the parcel is to leave later; null when none is planned.
 */
export async function getNextShippingDay(db: Db, now: Date = new Date(), notBefore?: string): Promise<string | null> {
  const today = shopDateAndHour(now).date;
  // Today and the day after are all the rule can need: today may be past its cut-off. Closed days never count.
  return nextShippingDay(await openShippingDays(db, { from: notBefore && notBefore > today ? notBefore : today, limit: 2 }), now);
}

/** Whether an order with this shipping date, paid `now`, is a future shipment (PAID_FUTURE_SHIPMENT). */
export async function isFutureShipmentNow(db: Db, shippingDate: string, now: Date = new Date()): Promise<boolean> {
  return isFutureShipment(shippingDate, await getNextShippingDay(db, now));
}

/** The countries the shop ships to, by name, each with its active states or provinces. */
export async function listShippingCountries(db: Db): Promise<ShippingCountry[]> {
  const [countries, regions] = await Promise.all([
    db
      .select({ id: country.id, code: country.code, name: country.name, phoneCode: country.phoneCode, eu: country.eu })
      .from(country)
      .where(eq(country.active, true))
      .orderBy(asc(country.name)),
    db
      .select({ countryId: region.countryId, code: region.code, name: region.name })
      .from(region)
      .where(eq(region.active, true))
      .orderBy(asc(region.name)),
  ]);
  return countries.map(({ id, ...rest }) => ({
    ...rest,
    regions: regions.filter((r) => r.countryId === id).map(({ code, name }) => ({ code, name })),
  }));
}

async function readSurchargeBands(db: Db): Promise<SurchargeBand[]> {
  return db
    .select({ minPrice: shippingSurcharge.minPrice, maxPrice: shippingSurcharge.maxPrice, percentage: shippingSurcharge.percentage })
    .from(shippingSurcharge);
}

/**
 * The country (and, where the country has them, the state or province) an order ships to, with the untracked limit
 * that applies there: the region's own where it sets one (remote regions lose more letters), the country's otherwise.
 */
async function findDestination(db: Db, countryCode: string, regionCode: string | undefined): Promise<Destination & { regionCode: string | null }> {
  const [found] = await db.select().from(country).where(eq(country.code, countryCode));
  if (!found) throw new AppError("BAD_REQUEST", `We do not know the country code ${countryCode}`);
  if (!found.active) throw new AppError("BAD_REQUEST", `We do not ship to ${found.name} at the moment`);
  const destination = {
    countryName: found.name,
    regionName: null as string | null,
    regionCode: null as string | null,
    untrackedCost: found.untrackedCost,
    tntCost: found.tntCost,
    untrackedEtaDays: found.untrackedEtaDays,
    tntEtaDays: found.tntEtaDays,
    maxOrderUntracked: found.maxOrderUntracked,
  };

  const regions = await db.select().from(region).where(eq(region.countryId, found.id));
  // A country without states or provinces ships the same everywhere; a stray region code changes nothing.
  if (regions.length === 0) return destination;
  if (!regionCode) throw new AppError("BAD_REQUEST", `Please choose a state or province in ${found.name}`);
  const chosen = regions.find((candidate) => candidate.code === regionCode);
  if (!chosen) throw new AppError("BAD_REQUEST", `${regionCode} is not a state or province of ${found.name}`);
  if (!chosen.active) throw new AppError("BAD_REQUEST", `We do not ship to ${chosen.name} at the moment`);
  return {
    ...destination,
    regionName: chosen.name,
    regionCode: chosen.code,
    maxOrderUntracked: chosen.maxOrderUntracked ?? found.maxOrderUntracked,
  };
}
