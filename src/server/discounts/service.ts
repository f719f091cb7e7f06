import "server-only";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { discount, user } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { limitFirstLook, type Caller } from "@/server/rate-limit/service";
import { formatDiscountValue, type DiscountTerms } from "./discount-price";
import type { AppliedCoupon } from "./schemas";
import { discountInForce, isDiscountInForce, userDiscountInForce } from "./in-force";

/** Codes are typed by people: compared without case and surrounding spaces. */
export function normaliseCouponCode(code: string): string {
  return code.trim().toUpperCase();
}

/**
 * The COUPON discount a code names, if it is active and inside its window now; otherwise an AppError whose message
 * tells the customer why: expired, or simply not valid. A code that is still to start answers like an unknown one,
 * so that trying codes cannot reveal a promotion before its launch, and every new code an anonymous caller tries
 * counts against their limit (SECURITY-REVIEW M4). `caller` is null only for staff and the shop's own jobs.
 */
export async function findCoupon(db: Db, code: string, now: Date, caller: Caller | null): Promise<AppliedCoupon> {
  const wanted = normaliseCouponCode(code);
  if (caller) await limitFirstLook(db, "couponCode", caller, wanted, now);
  const rows = await db
    .select({ name: discount.name, value: discount.value, pricingType: discount.pricingType, active: discount.active, startsAt: discount.startsAt, expiresAt: discount.expiresAt })
    .from(discount)
    .where(and(eq(discount.discountType, "COUPON"), eq(sql`upper(${discount.name})`, wanted)));
  // Several discounts may share a code over the years: the one in force wins, then the most informative refusal.
  const inForce = rows.find((row) => isDiscountInForce(row, now));
  if (inForce) {
    return { code: wanted, value: inForce.value, pricingType: inForce.pricingType, label: formatDiscountValue(inForce) };
  }
  const active = rows.filter((row) => row.active);
  if (active.some((row) => row.expiresAt && row.expiresAt <= now)) {
    throw new AppError("BAD_REQUEST", `The code ${wanted} has expired.`);
  }
  throw new AppError("BAD_REQUEST", `The code ${wanted} is not valid.`);
}

/** The GLOBAL discounts in force now; few, so callers read them once and apply them in code. */
export async function globalDiscounts(db: Db, now: Date): Promise<DiscountTerms[]> {
  return db
    .select({ value: discount.value, pricingType: discount.pricingType })
    .from(discount)
    .where(and(eq(discount.discountType, "GLOBAL"), discountInForce(now)));
}

/** The customer's personal USER discount, when they hold one that is in force now. */
export async function userDiscount(db: Db, userId: string, now: Date): Promise<(DiscountTerms & { name: string }) | null> {
  const [row] = await db
    .select({ name: discount.name, value: discount.value, pricingType: discount.pricingType })
    .from(user)
    .innerJoin(discount, userDiscountInForce(now))
    .where(eq(user.id, userId))
    .limit(1);
  return row ?? null;
}
