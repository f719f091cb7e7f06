import type { Decimal } from "decimal.js";
import type { PricingType } from "@/lib/enums";

/** A coupon that applies: its normalised code, its terms and how the shop shows it (-10%, -€5.00). */
export type AppliedCoupon = { code: string; value: Decimal; pricingType: PricingType; label: string };
