import "server-only";
import type { Decimal } from "decimal.js";
import { and, asc, count, eq, notInArray, sql, type SQL } from "drizzle-orm";
import { formatEuro } from "@/lib/money";
import type { Db } from "@/server/db/client";
import { lockRow } from "@/server/db/lock-row";
import { discount, order, orderDiscount, user } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { limitFirstLook, type Caller } from "@/server/rate-limit/service";
import { formatDiscountValue, type DiscountTerms } from "./discount-price";
import { normaliseCouponCode, type AppliedCoupon, type DiscountRef } from "./schemas";
import { discountInForce, isDiscountInForce, userDiscountInForce } from "./in-force";

/**
 * An order counts as a use of the discounts it recorded once it is paid, and until it is cancelled: an order waiting
 * for its payment uses nothing yet, so that unpaid orders (anonymous ones, or ones nobody will pay) cannot use up a
 * limited coupon (SECURITY-REVIEW N-L4). Every status but these two is a paid one.
 */
export const countedOrder: SQL = notInArray(order.status, ["PENDING", "CANCELLED"]);

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

/** How many paid orders (`countedOrder`) used a discount: what a coupon's usage limit is measured against. */
export async function discountUses(db: Db, discountId: number): Promise<number> {
  const [row] = await db
    .select({ uses: count() })
    .from(orderDiscount)
    .innerJoin(order, eq(order.id, orderDiscount.orderId))
    .where(and(eq(orderDiscount.discountId, discountId), countedOrder));
  return row?.uses ?? 0;
}

/**
 * The one answer for a code that does not apply now, whether nobody ever made it, it is switched off, still to start,
 * expired or used up: a different answer for a real code would let whoever tries codes tell the real ones from the
 * made-up ones (SECURITY-REVIEW M4, N-L5). The same when pricing and when placing the order.
 */
export function notValidMessage(code: string): string {
  return `The code ${code} is not valid.`;
}

/** The refusal of a coupon for a cart below its minimum order value. */
export function belowMinimumMessage(code: string, minimum: Decimal): string {
  return `${code} applies to orders from ${formatEuro(minimum)}.`;
}

/** A coupon found for a code: what the customer sees, and what pricing and the order need besides. */
export type CouponTerms = { applied: AppliedCoupon; discountId: number; minOrderValue: Decimal | null };

/**
 * Counts the caller's first look at a code within the limit's window against their limit on codes (SECURITY-REVIEW
 * M4); the same code again is free, since each change at checkout quotes it again.
 */
export async function countCouponLook(db: Db, code: string, caller: Caller, now: Date): Promise<void> {
  await limitFirstLook(db, "couponCode", caller, normaliseCouponCode(code), now);
}

/**
 * The COUPON discount a code names, if it is active, inside its window now and not used up; otherwise an AppError
 * with `notValidMessage`, the same for every code that does not apply now. Every new code an anonymous caller tries
 * counts against their limit (`countCouponLook`); `caller` is null only for staff and the shop's own jobs. The
 * minimum order value depends on the cart: pricing checks it (`minOrderValue`).
 */
export async function findCouponTerms(db: Db, code: string, now: Date, caller: Caller | null): Promise<CouponTerms> {
  const wanted = normaliseCouponCode(code);
  if (caller) await countCouponLook(db, wanted, caller, now);
  const rows = await db
    .select(discountColumns)
    .from(discount)
    .where(and(eq(discount.discountType, "COUPON"), eq(sql`upper(${discount.name})`, wanted)));
  // Several discounts may share a code over the years, never with overlapping windows (the admin refuses that).
  const inForce = rows.find((row) => isDiscountInForce(row, now));
  if (!inForce || (inForce.usageLimit !== null && (await discountUses(db, inForce.id)) >= inForce.usageLimit)) {
    throw new AppError("BAD_REQUEST", notValidMessage(wanted));
  }
  return {
    applied: { code: wanted, value: inForce.value, pricingType: inForce.pricingType, label: formatDiscountValue(inForce) },
    discountId: inForce.id,
    minOrderValue: inForce.minOrderValue,
  };
}

/** `findCouponTerms` as the customer sees its answer: the coupon, or why the code does not apply. */
export async function findCoupon(db: Db, code: string, now: Date, caller: Caller | null): Promise<AppliedCoupon> {
  return (await findCouponTerms(db, code, now, caller)).applied;
}

/** A coupon an order was paid with beyond its usage limit: its code, its limit and its paid uses now. */
export type CouponBeyondLimit = { code: string; usageLimit: number; uses: number };

/**
 * The coupons of a paid order whose paid uses, this order's included, are now more than their usage limit: unpaid
 * orders do not hold a use (`countedOrder`), so several may be placed for a coupon's last use and each is paid. Each
 * coupon's row is locked first (in id order, until the transaction ends; `claimCouponUses` locks it the same way), so
 * that of two payments settling at once for the last use the second counts the first. Call it once the order is paid.
 */
export async function couponsBeyondLimit(tx: Db, orderId: number): Promise<CouponBeyondLimit[]> {
  const coupons = await tx
    .select({ discountId: orderDiscount.discountId, code: orderDiscount.name })
    .from(orderDiscount)
    .where(and(eq(orderDiscount.orderId, orderId), eq(orderDiscount.discountType, "COUPON")))
    .orderBy(asc(orderDiscount.discountId));
  const beyond: CouponBeyondLimit[] = [];
  for (const { discountId, code } of coupons) {
    if (discountId === null) continue;
    const row = await lockRow(tx, discount, discountId, { usageLimit: discount.usageLimit });
    if (!row || row.usageLimit === null) continue;
    const uses = await discountUses(tx, discountId);
    if (uses > row.usageLimit) beyond.push({ code, usageLimit: row.usageLimit, uses });
  }
  return beyond;
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
