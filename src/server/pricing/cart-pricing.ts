import { Decimal } from "decimal.js";
import type { ProductForSale } from "@/server/catalog/product-for-sale";
import { bestDiscount, discountedPrice, formatDiscountValue, type DiscountTerms } from "@/server/discounts/discount-price";
import type { AppliedCoupon, DiscountRef, DiscountUse } from "@/server/discounts/schemas";
import type { CartDiscountLine, CartLine, PricedCart } from "./schemas";

/**
 * A PRODUCT or GLOBAL discount that could lower a product's price; read from the database it names its discount
 * (`discountId`...), so that an order records which one it used.
 */
export type LineDiscount = DiscountTerms & Partial<DiscountRef>;

/** A product as pricing needs it, with the PRODUCT and GLOBAL discounts in force for it. */
export type PricingProduct = ProductForSale & {
  image: string;
  lineDiscounts: LineDiscount[];
};

export type CartDiscountCandidate = DiscountTerms & { source: CartDiscountLine["source"]; name: string; discountId?: number };

/** A priced cart as `priceCart` answers: what the customer sees, and the discounts that took money off it. */
export type PricedCartCore = Pick<PricedCart, "items" | "itemCount" | "subtotal" | "discount" | "total"> & {
  /**
   * What each discount took off: for each PRODUCT or GLOBAL discount the sum it took off the lines, and the USER
   * discount or COUPON that applied to the subtotal. Only discounts that name their row are listed.
   */
  discountUses: DiscountUse[];
  /** Each line's PRODUCT or GLOBAL discount and what it took off that line, by product id. */
  lineDiscountUses: Map<number, DiscountUse>;
};

/** Discount uses added up per discount: what an order records of several lines that used the same discount. */
export function combineDiscountUses(uses: Iterable<DiscountUse>): DiscountUse[] {
  const combined = new Map<number, DiscountUse>();
  for (const use of uses) {
    const seen = combined.get(use.discountId);
    combined.set(use.discountId, seen ? { ...seen, amount: seen.amount.plus(use.amount) } : { ...use });
  }
  return [...combined.values()];
}

/**
 * Prices a cart by the shop's precedence rule (docs/pricing.md):
 *
 * 1. Each piece costs its list price less the best single PRODUCT or GLOBAL discount in force (the price the
 *    product card shows). Those two kinds never stack.
 * 2. The subtotal is the sum of those piece prices times quantities.
 * 3. Of the customer's USER discount and a COUPON, only the one that takes more off the subtotal applies, once, to
 *    the subtotal (a FIXED amount at most the subtotal). On a tie the customer's own discount stays.
 * 4. Total = subtotal − that cart discount. Shipping is added at checkout.
 */
export function priceCart(
  products: PricingProduct[],
  quantities: Map<number, number>,
  cartDiscounts: CartDiscountCandidate[],
): PricedCartCore {
  const lineDiscountUses = new Map<number, DiscountUse>();
  const items: CartLine[] = products.map((product) => {
    const quantity = quantities.get(product.productId) ?? 0;
    const applied = bestDiscount(product.price, product.lineDiscounts);
    const unitPrice = applied ? discountedPrice(product.price, applied) : product.price;
    if (applied?.discountId !== undefined && applied.discountType && applied.name !== undefined && quantity > 0) {
      const amount = product.price.minus(unitPrice).times(quantity);
      lineDiscountUses.set(product.productId, { discountId: applied.discountId, discountType: applied.discountType, name: applied.name, amount });
    }
    return {
      productId: product.productId,
      name: product.name,
      price: product.price,
      unitPrice,
      discountLabel: applied ? formatDiscountValue(applied) : null,
      quantity,
      stock: product.stock,
      lineTotal: unitPrice.times(quantity),
      image: product.image,
    };
  });
  const subtotal = items.reduce((sum, line) => sum.plus(line.lineTotal), new Decimal(0));
  const best = bestDiscount(subtotal, cartDiscounts);
  const discount: CartDiscountLine | null = best
    ? { source: best.source, name: best.name, label: formatDiscountValue(best), amount: subtotal.minus(discountedPrice(subtotal, best)) }
    : null;
  const discountUses = combineDiscountUses(lineDiscountUses.values());
  if (best?.discountId !== undefined && discount) discountUses.push({ discountId: best.discountId, discountType: best.source, name: best.name, amount: discount.amount });
  return {
    items,
    itemCount: items.reduce((sum, line) => sum + line.quantity, 0),
    subtotal,
    discount,
    total: subtotal.minus(discount?.amount ?? 0),
    discountUses,
    lineDiscountUses,
  };
}

export function couponCandidate(coupon: AppliedCoupon, discountId?: number): CartDiscountCandidate {
  return { source: "COUPON", name: coupon.code, value: coupon.value, pricingType: coupon.pricingType, discountId };
}
