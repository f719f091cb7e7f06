import { Decimal } from "decimal.js";
import type { PricingType } from "@/lib/enums";
import { formatEuro } from "@/lib/money";

export type DiscountTerms = { value: Decimal; pricingType: PricingType };

/**
 * The price after one discount (SPEC section 9): FIXED takes the value off, PERCENT takes price × value off, where
 * value is a fraction. Never below zero; rounded to cents.
 */
export function discountedPrice(price: Decimal, discount: DiscountTerms): Decimal {
  const reduced = discount.pricingType === "FIXED" ? price.minus(discount.value) : price.minus(price.times(discount.value));
  return Decimal.max(reduced, 0).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}

/** How a discount is shown: a rounded whole percent with a minus sign (-15%), or a euro amount (-€10.00). */
export function formatDiscountValue(discount: DiscountTerms): string {
  if (discount.pricingType === "PERCENT") return `-${discount.value.times(100).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toString()}%`;
  return `-${formatEuro(discount.value)}`;
}

/** Of several discounts that could apply to one price, the one that leaves the customer paying least. */
export function bestDiscount<T extends DiscountTerms>(price: Decimal, candidates: T[]): T | null {
  let best: T | null = null;
  let bestPrice = price;
  for (const candidate of candidates) {
    const candidatePrice = discountedPrice(price, candidate);
    if (candidatePrice.lessThan(bestPrice)) {
      best = candidate;
      bestPrice = candidatePrice;
    }
  }
  return best;
}
