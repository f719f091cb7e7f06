import { Decimal } from "decimal.js";

/**
 * The insurance surcharge checkout adds to shipping, pure and shared with the browser: the server's quote charges it
 * and the surcharge bands' editor previews it with this one rule. What makes a valid set of bands is
 * `server/shipping/surcharge-bands.ts`.
 */

/** Order values from `minPrice` to `maxPrice` (both included) pay `percentage`, a fraction (0.05 is 5%), of the value. */
export type SurchargeBand = { minPrice: Decimal; maxPrice: Decimal; percentage: Decimal };

/**
 * The surcharge band an order value falls in. Bands are inclusive at both ends; where two bands meet (the seed's
 * 100.00 ends one band and starts the next) the higher band applies, so a band's minimum is where its rate starts.
 * Null when no band covers the value.
 */
export function surchargeBandFor(bands: readonly SurchargeBand[], value: Decimal): SurchargeBand | null {
  let match: SurchargeBand | null = null;
  for (const band of bands) {
    if (value.lessThan(band.minPrice) || value.greaterThan(band.maxPrice)) continue;
    if (!match || band.minPrice.greaterThan(match.minPrice)) match = band;
  }
  return match;
}

/**
 * The surcharge is a percentage of the order value, not of the shipping cost: it pays for insuring the parcel's
 * contents, and what an insurer charges follows what is in the box. A €600 watch sent to Germany pays 5% of €600
 * (€30.00) on top of the €12.95 postage, where 5% of the postage (€0.65) would not cover the risk at all. Rounded
 * half up to the cent.
 */
export function surchargeAmount(value: Decimal, band: Pick<SurchargeBand, "percentage"> | null): Decimal {
  if (!band) return new Decimal(0);
  return value.times(band.percentage).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}
