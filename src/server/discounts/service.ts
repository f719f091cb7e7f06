import "server-only";
import type { Decimal } from "decimal.js";
import { and, count, eq, ne, sql, type SQL } from "drizzle-orm";
import { formatEuro } from "@/lib/money";
import type { Db } from "@/server/db/client";
import { discount, order, orderDiscount, user } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { limitFirstLook, type Caller } from "@/server/rate-limit/service";
import { formatDiscountValue, type DiscountTerms } from "./discount-price";
import { normaliseCouponCode, type AppliedCoupon, type DiscountRef } from "./schemas";
import { discountInForce, isDiscountInForce, userDiscountInForce } from "./in-force";

/**
 * An order counts as a use of the discounts it recorded unless it was cancelled: an unpaid order that expires is
 * cancelled and so gives its coupon use back.
 */
export const countedOrder: SQL = ne(order.status, "CANCELLED");

/** A discount's own columns: its kind, terms, window, switch and coupon terms (its targets are on products and users). */
export const discountColumns = {
  id: discount.id,
  name: discount.name,
  discountType: discount.discountType,
  pricingType: discount.pricingType,
  value: discount.value,
  active: discount.active,
  startsAt: discount.startsAt,
  expiresAt: discount.expiresAt,
  minOrderValue: discount.minOrderValue,
  usageLimit: discount.usageLimit,
};

/** How many orders (not cancelled) used a discount: what a coupon's usage limit is measured against. */
export async function discountUses(db: Db, discountId: number): Promise<number> {
  const [row] = await db
    .select({ uses: count() })
    .from(orderDiscount)
    .innerJoin(order, eq(order.id, orderDiscount.orderId))
    .where(and(eq(orderDiscount.discountId, discountId), countedOrder));
  return row?.uses ?? 0;
}

/** The refusal of a coupon whose usage limit is reached, the same when pricing and when placing the order. */
export function usedUpMessage(code: string): string {
  return `The code ${code} has been used up.`;
}

/** The refusal of a coupon for a cart below its minimum order value. */
export function belowMinimumMessage(code: string, minimum: Decimal): string {
  return `${code} applies to orders from ${formatEuro(minimum)}.`;
}

/** A coupon found for a code: what the customer sees, and what pricing and the order need besides. */
export type CouponTerms = { applied: AppliedCoupon; discountId: number; minOrderValue: Decimal | null };

/**
 * The COUPON discount a code names, if it is active, inside its window now and not used up; otherwise an AppError
 * whose message tells the customer why: expired, used up, or simply not valid. A code that is still to start answers
 * like an unknown one, so that trying codes cannot reveal a promotion before its launch, and every new code an
 * anonymous caller tries counts against their limit (SECURITY-REVIEW M4). `caller` is null only for staff and the
 * shop's own jobs. The minimum order value depends on the cart: pricing checks it (`minOrderValue`).
 */
export async function findCouponTerms(db: Db, code: string, now: Date, caller: Caller | null): Promise<CouponTerms> {
  const wanted = normaliseCouponCode(code);
  if (caller) await limitFirstLook(db, "couponCode", caller, wanted, now);
  const rows = await db
    .select(discountColumns)
    .from(discount)
    .where(and(eq(discount.discountType, "COUPON"), eq(sql`upper(${discount.name})`, wanted)));
  // Several discounts may share a code over the years (never with overlapping windows: the admin refuses that): the
  // one in force wins, then the most informative refusal.
  const inForce = rows.find((row) => isDiscountInForce(row, now));
  if (inForce) {
    if (inForce.usageLimit !== null && (await discountUses(db, inForce.id)) >= inForce.usageLimit) {
      throw new AppError("BAD_REQUEST", usedUpMessage(wanted));
    }
    return {
      applied: { code: wanted, value: inForce.value, pricingType: inForce.pricingType, label: formatDiscountValue(inForce) },
      discountId: inForce.id,
      minOrderValue: inForce.minOrderValue,
    };
  }
  const active = rows.filter((row) => row.active);
  if (active.some((row) => row.expiresAt && row.expiresAt <= now)) {
    throw new AppError("BAD_REQUEST", `The code ${wanted} has expired.`);
  }
  throw new AppError("BAD_REQUEST", `The code ${wanted} is not valid.`);
}

/** `findCouponTerms` as the customer sees its answer: the coupon, or why the code does not apply. */
export async function findCoupon(db: Db, code: string, now: Date, caller: Caller | null): Promise<AppliedCoupon> {
  return (await findCouponTerms(db, code, now, caller)).applied;
}

const refColumns = { discountId: discount.id, discountType: discount.discountType, name: discount.name };

/** The GLOBAL discounts in force now; few, so callers read them once and apply them in code. */
export async function globalDiscounts(db: Db, now: Date): Promise<(DiscountTerms & DiscountRef)[]> {
  return db
    .select({ value: discount.value, pricingType: discount.pricingType, ...refColumns })
    .from(discount)
    .where(and(eq(discount.discountType, "GLOBAL"), discountInForce(now)));
}

/** The customer's personal USER discount, when they hold one that is in force now. */
export async function userDiscount(db: Db, userId: string, now: Date): Promise<(DiscountTerms & DiscountRef) | null> {
  const [row] = await db
    .select({ value: discount.value, pricingType: discount.pricingType, ...refColumns })
    .from(user)
    .innerJoin(discount, userDiscountInForce(now))
    .where(eq(user.id, userId))
    .limit(1);
  return row ?? null;
}
