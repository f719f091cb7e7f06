import { Decimal } from "decimal.js";
import { z } from "zod";

/**
 * Amounts as staff type them into the back office's forms, read into Decimals by the same zod schema the server
 * checks with, so a form and its procedure never disagree on what is a valid amount.
 */

/** An amount in euros as typed: 49.95 or 49,95; at most 99,999,999.99, so that any line and order stays storable. */
export const euroText = z
  .string()
  .trim()
  .regex(/^\d{1,8}([.,]\d{1,2})?$/, "must be an amount in euros, like 49.95")
  .transform((value) => new Decimal(value.replace(",", ".")));

/** An optional amount in euros; an empty field means none. */
export const optionalEuroText = euroText.optional().or(z.literal("").transform(() => undefined));

/**
 * A percentage as typed (15, 7.5 or 7,5), from more than 0 up to 100, stored as the fraction the shop computes with
 * (0.15): SPEC section 9 keeps percent discounts and surcharges as fractions and shows them as -15%.
 */
export const percentText = z
  .string()
  .trim()
  .regex(/^\d{1,3}([.,]\d{1,2})?$/, "must be a percentage, like 15 or 7.5")
  .transform((value) => new Decimal(value.replace(",", ".")))
  .refine((value) => value.greaterThan(0) && value.lessThanOrEqualTo(100), "must be more than 0 and at most 100")
  .transform((value) => value.dividedBy(100));

/** A stored fraction as the percentage staff type and read back: 0.15 → "15", 0.035 → "3.5". */
export function percentAsTyped(fraction: Decimal): string {
  return fraction.times(100).toDecimalPlaces(2).toString();
}

/** The range `euroText` reads, for a number field to hold to (at most eight digits before the point). */
export const euroRange = { min: 0, max: 99_999_999.99, step: 0.01 };

/** The range `percentText` reads: more than 0, so the least is one hundredth of a percent. */
export const percentRange = { min: 0.01, max: 100, step: 0.01 };

/** `euroRange` for an amount that must be more than zero. */
export const positiveEuroRange = { ...euroRange, min: 0.01 };

/** The range a surcharge band's percentage reads: from 0, since a 0% band charges nothing in its range. */
export const surchargePercentRange = { ...percentRange, min: 0 };
