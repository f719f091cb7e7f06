import type { Decimal } from "decimal.js";
import type { DiscountType, PricingType } from "@/lib/enums";

/** Codes are typed by people: compared without case and surrounding spaces. */
export function normaliseCouponCode(code: string): string {
  return code.trim().toUpperCase();
}

/** A coupon that applies: its normalised code, its terms and how the shop shows it (-10%, -€5.00). */
export type AppliedCoupon = { code: string; value: Decimal; pricingType: PricingType; label: string };

/**
 * Which discount a price or a cart discount came from, carried through pricing so that a placed order can record
 * the discounts it used (`order_discount`). `name` is the discount's name then (a coupon's code).
 */
export type DiscountRef = { discountId: number; discountType: DiscountType; name: string };

/** A discount that took `amount` off an order: one row of `order_discount`. */
export type DiscountUse = DiscountRef & { amount: Decimal };
