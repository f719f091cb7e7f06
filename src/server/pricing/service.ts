import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { discount, product } from "@/server/db/schema";
import { productDiscountInForce } from "@/server/discounts/in-force";
import { findCoupon, globalDiscounts, userDiscount } from "@/server/discounts/service";
import { AppError } from "@/server/errors";
import type { Caller } from "@/server/rate-limit/service";
import { productImageKey } from "@/server/integrations/storage/port";
import { couponCandidate, priceCart, type CartDiscountCandidate, type PricingProduct } from "./cart-pricing";
import type { AppliedCoupon } from "@/server/discounts/schemas";
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
    const own = row.discountValue && row.discountPricingType ? [{ value: row.discountValue, pricingType: row.discountPricingType }] : [];
    return [{ productId: row.productId, name: row.name, price: row.price, stock: row.stock, image: options.imageUrl(productImageKey(row.productId)), lineDiscounts: [...own, ...globals] }];
  });
}

/**
 * Prices a cart entirely from the database: products, their discounts, the customer's discount and a coupon.
 * Whatever prices the browser holds are never read (the input has none).
 */
export async function priceItems(db: Db, items: CartItemInput[], options: PricingOptions): Promise<PricedCart> {
  const quantities = combineItems(items);
  const productIds = [...quantities.keys()];
  const products = await loadPricingProducts(db, productIds, options);

  const candidates: CartDiscountCandidate[] = [];
  if (options.userId) {
    const personal = await userDiscount(db, options.userId, options.now);
    if (personal) candidates.push({ source: "USER", ...personal });
  }
  let coupon: AppliedCoupon | null = null;
  let couponMessage: string | null = null;
  if (options.couponCode) {
    try {
      coupon = await findCoupon(db, options.couponCode, options.now, options.caller);
      candidates.push(couponCandidate(coupon));
    } catch (error) {
      // A code that does not apply is news for the summary; too many codes tried is a refusal of the whole call.
      if (!(error instanceof AppError) || error.code === "TOO_MANY_REQUESTS") throw error;
      couponMessage = error.message;
    }
  }

  const priced = priceCart(products, quantities, candidates);
  if (coupon && priced.discount?.source !== "COUPON") {
    couponMessage = priced.discount
      ? `Your ${priced.discount.name} discount takes more off than ${coupon.code}, so it stays.`
      : `${coupon.code} takes nothing off this cart.`;
  }
  const known = new Set(products.map((p) => p.productId));
  return { ...priced, coupon, couponMessage, unavailableProductIds: productIds.filter((id) => !known.has(id)) };
}
