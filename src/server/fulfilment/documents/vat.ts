import { Decimal } from "decimal.js";
import { percentAsTyped } from "@/lib/amount-text";

/**
 * The VAT included in a VAT-inclusive amount at `rate` (0.21): amount × rate / (1 + rate), to the cent, half up. What
 * the invoice's "incl. 21% VAT" line shows for the order's total.
 */
export function includedVat(amount: Decimal, rate: Decimal): Decimal {
  return amount.times(rate).dividedBy(rate.plus(1)).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}

/** A rate as a percentage without trailing zeros: 0.21 is "21%", 0.055 is "5.5%". */
export function formatVatRate(rate: Decimal): string {
  return `${percentAsTyped(rate)}%`;
}
