import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { discount, product } from "@/server/db/schema";
import { productDiscountInForce } from "@/server/discounts/in-force";
import { belowMinimumMessage, findCouponTerms, globalDiscounts, userDiscount, type CouponTerms } from "@/server/discounts/service";
import { AppError } from "@/server/errors";
import type { Caller } from "@/server/rate-limit/service";
import { productImageKey } from "@/server/integrations/storage/port";
import { couponCandidate, priceCart, type CartDiscountCandidate, type PricingProduct } from "./cart-pricing";
import type { DiscountUse } from "@/server/discounts/schemas";
import type { CartItemInput, PricedCart } from "./schemas";

export type PricingOptions = {
  now: Date;
  imageUrl: (key: string) => string;
  /** The signed-in customer, whose USER discount may apply. */
  userId?: string;
  /** A coupon code to price the cart with; an invalid one is reported in `couponMessage`, not thrown. */
  couponCode?: string;
  /** Who asks, for the limit on trying coupon codes; null for staff and the shop's own jobs. */
  caller: Caller | null;
};

/** Adds up repeated products, so that a cart names each product once. */
export function combineItems(items: CartItemInput[]): Map<number, number> {
  const quantities = new Map<number, number>();
  for (const item of items) quantities.set(item.productId, (quantities.get(item.productId) ?? 0) + item.quantity);
  return quantities;
}

/** The products of a cart that the web shop still sells, with their PRODUCT and GLOBAL discounts in force. */
export async function loadPricingProducts(db: Db, productIds: number[], options: Pick<PricingOptions, "now" | "imageUrl">): Promise<PricingProduct[]> {
  if (productIds.length === 0) return [];
  const [rows, globals] = await Promise.all([
    db
      .select({
        productId: product.id,
        name: product.name,
        price: product.price,
        stock: product.stock,
        discountId: discount.id,
        discountName: discount.name,
        discountValue: discount.value,
        discountPricingType: discount.pricingType,
      })
      .from(product)
      .leftJoin(discount, productDiscountInForce(options.now))
      .where(and(inArray(product.id, productIds), eq(product.wsStatus, "ONLINE"))),
    globalDiscounts(db, options.now),
  ]);
  const byId = new Map(rows.map((row) => [row.productId, row]));
  // Keep the order the customer added things in.
  return productIds.flatMap((id) => {
    const row = byId.get(id);
    if (!row) return [];
    const own =
      row.discountId !== null && row.discountName !== null && row.discountValue && row.discountPricingType
        ? [{ value: row.discountValue, pricingType: row.discountPricingType, discountId: row.discountId, discountType: "PRODUCT" as const, name: row.discountName }]
        : [];
    return [{ productId: row.productId, name: row.name, price: row.price, stock: row.stock, image: options.imageUrl(productImageKey(row.productId)), lineDiscounts: [...own, ...globals] }];
  });
}

/**
 * A priced cart with the discounts that took money off it, for the order placed from it to record: all of them
 * (`discountUses`), and each line's own by product id (`lineDiscountUses`, for an order that prices some lines
 * otherwise, such as a manual order's override; `combineDiscountUses` adds the kept ones up).
 */
export type PricedCartWithUses = { cart: PricedCart; discountUses: DiscountUse[]; lineDiscountUses: Map<number, DiscountUse> };

/**
 * Prices a cart entirely from the database: products, their discounts, the customer's discount and a coupon.
 * Whatever prices the browser holds are never read (the input has none). A coupon applies only to a cart whose
 * subtotal (after product discounts) reaches its minimum order value; otherwise `couponMessage` says from what amount.
 */
export async function priceItemsWithUses(db: Db, items: CartItemInput[], options: PricingOptions): Promise<PricedCartWithUses> {
  const quantities = combineItems(items);
  const productIds = [...quantities.keys()];
  const products = await loadPricingProducts(db, productIds, options);

  const candidates: CartDiscountCandidate[] = [];
  if (options.userId) {
    const personal = await userDiscount(db, options.userId, options.now);
    if (personal) candidates.push({ source: "USER", ...personal });
  }
  let coupon: CouponTerms | null = null;
  let couponMessage: string | null = null;
  if (options.couponCode) {
    try {
      coupon = await findCouponTerms(db, options.couponCode, options.now, options.caller);
    } catch (error) {
      // A code that does not apply is news for the summary; too many codes tried is a refusal of the whole call.
      if (!(error instanceof AppError) || error.code === "TOO_MANY_REQUESTS") throw error;
      couponMessage = error.message;
    }
    const minimum = coupon?.minOrderValue;
    if (coupon && minimum && priceCart(products, quantities, []).subtotal.lessThan(minimum)) {
      couponMessage = belowMinimumMessage(coupon.applied.code, minimum);
      coupon = null;
    }
    if (coupon) candidates.push(couponCandidate(coupon.applied, coupon.discountId));
  }

  const { discountUses, lineDiscountUses, ...priced } = priceCart(products, quantities, candidates);
  if (coupon && priced.discount?.source !== "COUPON") {
    couponMessage = priced.discount
      ? `Your ${priced.discount.name} discount takes more off than ${coupon.applied.code}, so it stays.`
      : `${coupon.applied.code} takes nothing off this cart.`;
  }
  const known = new Set(products.map((p) => p.productId));
  return {
    cart: { ...priced, coupon: coupon?.applied ?? null, couponMessage, unavailableProductIds: productIds.filter((id) => !known.has(id)) },
    discountUses,
    lineDiscountUses,
  };
}

/** `priceItemsWithUses` as the customer sees it: the priced cart. */
export async function priceItems(db: Db, items: CartItemInput[], options: PricingOptions): Promise<PricedCart> {
  return (await priceItemsWithUses(db, items, options)).cart;
}
