import "server-only";
import { and, eq, gt, isNull, lte, or, sql, type SQL } from "drizzle-orm";
import { discount, product, user } from "@/server/db/schema";

/**
 * When a discount is in force, said twice in one place: as SQL for queries that filter or join discounts, and as
 * JavaScript for rows already read. Both are checked against the same cases (in-force-cases.ts), so they cannot drift.
 */
export type DiscountWindow = { active: boolean; startsAt: Date | null; expiresAt: Date | null };

/** A discount is in force when it is active and now lies inside its optional window: from `startsAt`, until before `expiresAt`. */
export function discountInForce(now: Date): SQL {
  return and(
    eq(discount.active, true),
    or(isNull(discount.startsAt), lte(discount.startsAt, now)),
    or(isNull(discount.expiresAt), gt(discount.expiresAt, now)),
  )!;
}

/** The same rule as `discountInForce`, for a row already read. */
export function isDiscountInForce(row: DiscountWindow, now: Date): boolean {
  return row.active && (!row.startsAt || row.startsAt <= now) && (!row.expiresAt || row.expiresAt > now);
}

/**
 * Where a discount stands, as the admin's list shows it: inactive (switched off), scheduled (on, its start ahead),
 * expired (on, its end passed) or running (in force, `isDiscountInForce`).
 */
export function discountStatus(row: DiscountWindow, now: Date): "scheduled" | "running" | "expired" | "inactive" {
  if (isDiscountInForce(row, now)) return "running";
  if (!row.active) return "inactive";
  if (row.expiresAt && row.expiresAt <= now) return "expired";
  return "scheduled";
}

/** Joins a product to its PRODUCT discount when that discount is in force. */
export function productDiscountInForce(now: Date): SQL {
  return and(eq(discount.id, product.discountId), eq(discount.discountType, "PRODUCT"), discountInForce(now))!;
}

/** Joins a customer to their USER discount when that discount is in force. */
export function userDiscountInForce(now: Date): SQL {
  return and(eq(discount.id, user.discountId), eq(discount.discountType, "USER"), discountInForce(now))!;
}

/** A product is on sale when its own PRODUCT discount or any GLOBAL discount is in force. */
export function productOnSale(now: Date): SQL {
  return sql`(${product.discountId} in (select ${discount.id} from ${discount} where ${discount.discountType} = 'PRODUCT' and ${discountInForce(now)})
      or exists (select 1 from ${discount} where ${discount.discountType} = 'GLOBAL' and ${discountInForce(now)}))`;
}
