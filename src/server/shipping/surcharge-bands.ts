import { Decimal } from "decimal.js";
import { percentAsTyped } from "@/lib/amount-text";
import { formatEuro } from "@/lib/money";
import type { SurchargeBand } from "@/lib/surcharge";

/**
 * The rule a set of surcharge bands must keep, pure, so that the staff form checks as it is typed what the service
 * checks again under its lock.
 *
 * How checkout picks a band (`surchargeBandFor` in lib/surcharge.ts): a band covers its minimum and its maximum both,
 * and where two bands meet (one's maximum is the next one's minimum) the higher band applies at that amount. So a
 * set is valid when, sorted by minimum, it is a chain: each band starts exactly where the band before it ends.
 * - Meeting at one amount is how bands join, not an overlap: checkout settles that amount (the higher band).
 * - Starting before the previous band ends is an overlap: two rates for a range of order values.
 * - Starting after it is a gap: order values between two bands would pay no surcharge while both neighbours do.
 *   Bands join exactly even though order values are whole cents (€0–€99.99 and €100–€250 leave no cent out): a
 *   band ends where the next begins, so staff move one figure when they move a boundary, and nothing is left to
 *   guess about the cent in between.
 * Below the first band and above the last no surcharge applies; the chain need not start at €0 nor end anywhere.
 * A band's percentage is a fraction from 0 to 1 (0% to 100%): a 0% band says in so many words that small orders
 * pay none, as the seeded €0–€100 band does.
 */

export type SurchargeBandProblem = {
  kind: "EMPTY_RANGE" | "OVERLAP" | "GAP" | "PERCENTAGE";
  /** For staff, naming the bands by their ranges: "€500.00–€1,000.00 overlaps €800.00–€2,000.00". */
  message: string;
  /** The band whose field the problem belongs to, as its index in the list checked (the later band of two). */
  band: number;
  field: "minPrice" | "maxPrice" | "percentage";
};

/** A band as staff know it: "€500.00–€1,000.00". */
export function bandRange(band: Pick<SurchargeBand, "minPrice" | "maxPrice">): string {
  return `${formatEuro(band.minPrice)}–${formatEuro(band.maxPrice)}`;
}

/** A fraction as the percentage staff type: 0.035 → "3.5%". */
export function percentOf(fraction: Decimal): string {
  return `${percentAsTyped(fraction)}%`;
}

/** Every way the set breaks the rule; empty when checkout can use the set as it is. */
export function checkSurchargeBands(bands: readonly SurchargeBand[]): SurchargeBandProblem[] {
  const problems: SurchargeBandProblem[] = [];
  const ranged: { band: SurchargeBand; index: number }[] = [];
  bands.forEach((band, index) => {
    if (band.percentage.isNegative()) {
      problems.push({ kind: "PERCENTAGE", band: index, field: "percentage", message: `${bandRange(band)}: the surcharge must not be negative` });
    } else if (band.percentage.greaterThan(1)) {
      problems.push({ kind: "PERCENTAGE", band: index, field: "percentage", message: `${bandRange(band)}: the surcharge must be at most 100%` });
    }
    if (band.maxPrice.lessThanOrEqualTo(band.minPrice)) {
      problems.push({ kind: "EMPTY_RANGE", band: index, field: "maxPrice", message: `${bandRange(band)}: the maximum must be more than the minimum` });
    } else {
      ranged.push({ band, index });
    }
  });

  // Bands without a range of their own are reported above and left out of the chain.
  const chain = ranged.sort((a, b) => a.band.minPrice.comparedTo(b.band.minPrice) || a.band.maxPrice.comparedTo(b.band.maxPrice) || a.index - b.index);
  chain.forEach((later, position) => {
    for (const earlier of chain.slice(0, position)) {
      if (later.band.minPrice.lessThan(earlier.band.maxPrice)) {
        problems.push({ kind: "OVERLAP", band: later.index, field: "minPrice", message: `${bandRange(earlier.band)} overlaps ${bandRange(later.band)}` });
      }
    }
  });

  let reach: Decimal | null = null;
  for (const { band, index } of chain) {
    if (reach !== null && band.minPrice.greaterThan(reach)) {
      problems.push({
        kind: "GAP",
        band: index,
        field: "minPrice",
        message: `Nothing covers ${bandRange({ minPrice: reach, maxPrice: band.minPrice })} between two bands; a band starts where the one before it ends`,
      });
    }
    reach = reach === null ? band.maxPrice : Decimal.max(reach, band.maxPrice);
  }

  return problems;
}

/** The problems in one sentence each, for an error message. */
export function describeBandProblems(problems: readonly SurchargeBandProblem[]): string {
  return problems.map((problem) => `${problem.message}.`).join(" ");
}
