import { Decimal } from "decimal.js";
import { z } from "zod";
import { euroText, optionalEuroText } from "@/lib/amount-text";
import { countryCode, regionCode, type ShippingRates } from "./schemas";
import { checkSurchargeBands } from "./surcharge-bands";

/**
 * What staff send to change shipping costs (`admin.shippingCosts.*`): the surcharge bands, and each country's and
 * region's methods, prices and limits. The back office's forms validate with these same schemas (amounts as typed
 * text, read into Decimals), so a form never sends what the service would refuse for its fields.
 */

/**
 * A band's surcharge as typed (5, 3.5 or 3,5), stored as the fraction checkout multiplies by (0.05). Unlike a
 * discount (`percentText`) it may be 0: a 0% band says that orders in its range pay no surcharge, as the seeded
 * €0–€100 band does, and a set of bands holding one must stay savable.
 */
export const surchargePercentText = z
  .string()
  .trim()
  .regex(/^\d{1,3}([.,]\d{1,2})?$/, "must be a percentage, like 5 or 3.5")
  .transform((value) => new Decimal(value.replace(",", ".")))
  .refine((value) => value.lessThanOrEqualTo(100), "must be from 0 to 100")
  .transform((value) => value.dividedBy(100));

const bandId = z.number().int().positive();

const bandFields = { minPrice: euroText, maxPrice: euroText, percentage: surchargePercentText };

// Object checks run after field errors too; these wait until every field has been read.
const fieldsRead = (payload: { issues: readonly unknown[] }) => payload.issues.length === 0;

const maxAboveMin = { path: ["maxPrice"], message: "must be more than the minimum", when: fieldsRead };

/** A new band (`/admin/shippingSurcharge/create`). */
export const surchargeBandInput = z.object(bandFields).refine((band) => band.maxPrice.greaterThan(band.minPrice), maxAboveMin);
export type SurchargeBandInput = z.input<typeof surchargeBandInput>;
export type SurchargeBandValues = z.output<typeof surchargeBandInput>;

/** One band changed. */
export const updateSurchargeBandInput = z.object({ id: bandId, ...bandFields }).refine((band) => band.maxPrice.greaterThan(band.minPrice), maxAboveMin);
export type UpdateSurchargeBandInput = z.input<typeof updateSurchargeBandInput>;
export type UpdateSurchargeBandValues = z.output<typeof updateSurchargeBandInput>;

export const surchargeBandIdInput = z.object({ id: bandId });
export type SurchargeBandIdInput = z.input<typeof surchargeBandIdInput>;
export type SurchargeBandIdValues = z.output<typeof surchargeBandIdInput>;

/** More bands than any shop needs; a set this long is a mistake, not a price list. */
export const MAX_SURCHARGE_BANDS = 50;

/**
 * The whole set as the manage page edits it: the bands kept (with their id), the new ones (without), and those left
 * out are removed. `version` is the list's version the page started from: another staff member's change in between
 * is not overwritten. The set rule (`checkSurchargeBands`) marks the field of the band each problem belongs to.
 */
export const saveSurchargeBandsInput = z
  .object({
    version: z.string().max(100),
    bands: z
      .array(z.object({ id: bandId.optional(), ...bandFields }))
      .max(MAX_SURCHARGE_BANDS, `must be at most ${MAX_SURCHARGE_BANDS} bands`)
      .refine((bands) => new Set(bands.flatMap((band) => (band.id ? [band.id] : []))).size === bands.filter((band) => band.id).length, "names a band twice"),
  })
  .superRefine(({ bands }, ctx) => {
    if (!bands.every((band) => Decimal.isDecimal(band.minPrice) && Decimal.isDecimal(band.maxPrice) && Decimal.isDecimal(band.percentage))) return;
    for (const problem of checkSurchargeBands(bands)) ctx.addIssue({ code: "custom", path: ["bands", problem.band, problem.field], message: problem.message });
  });
export type SaveSurchargeBandsInput = z.input<typeof saveSurchargeBandsInput>;
export type SaveSurchargeBandsValues = z.output<typeof saveSurchargeBandsInput>;

export type AdminSurchargeBand = { id: number; minPrice: Decimal; maxPrice: Decimal; percentage: Decimal; updatedAt: Date };

export type SurchargeBandList = {
  /** By minimum, as checkout's chain runs. */
  bands: AdminSurchargeBand[];
  /** What is wrong with the stored set (empty when nothing is): a set saved before the rule, or edited in the database. */
  problems: string[];
  /** Changes whenever any band does; `saveSurchargeBands` refuses a save started from another version. */
  version: string;
};

// Countries and regions.

/** Delivery time in days as typed: a whole number from 1 to 90. */
export const etaDaysText = z
  .string()
  .trim()
  .regex(/^\d{1,3}$/, "must be a whole number of days")
  .transform(Number)
  .refine((days) => days >= 1 && days <= 90, "must be from 1 to 90 days");

export const countryCodeInput = z.object({ code: countryCode });
export type CountryCodeInput = z.input<typeof countryCodeInput>;
export type CountryCodeValues = z.output<typeof countryCodeInput>;

export const countryListInput = z.object({ search: z.string().trim().max(100).optional() });
export type CountryListInput = z.input<typeof countryListInput>;
export type CountryListValues = z.output<typeof countryListInput>;

/** A region as its country's form edits it; an empty untracked limit means the country's own applies. */
export const regionCostsInput = z.object({
  code: regionCode.transform((code) => code.toUpperCase()),
  active: z.boolean(),
  maxOrderUntracked: optionalEuroText,
});

/**
 * A country's shipping as staff edit it: whether the shop ships there, the EU flag (customs paperwork), each method's
 * price and delivery days, the order value above which a parcel must go tracked, and its regions. Regions left out
 * stay as they are.
 */
export const updateCountryCostsInput = countryCodeInput.extend({
  active: z.boolean(),
  eu: z.boolean(),
  untrackedCost: euroText,
  tntCost: euroText,
  untrackedEtaDays: etaDaysText,
  tntEtaDays: etaDaysText,
  maxOrderUntracked: euroText,
  regions: z.array(regionCostsInput).max(200),
});
export type UpdateCountryCostsInput = z.input<typeof updateCountryCostsInput>;
export type UpdateCountryCostsValues = z.output<typeof updateCountryCostsInput>;

/** A country in the staff list. */
export type AdminCountryRow = ShippingRates & {
  id: number;
  code: string;
  name: string;
  phoneCode: string;
  active: boolean;
  eu: boolean;
  regionCount: number;
  activeRegionCount: number;
};

export type AdminRegion = { id: number; code: string; name: string; active: boolean; maxOrderUntracked: Decimal | null };

export type AdminCountry = AdminCountryRow & { regions: AdminRegion[]; updatedAt: Date };
