import { Decimal } from "decimal.js";
import { bestDiscount, discountedPrice, formatDiscountValue, type DiscountTerms } from "@/server/discounts/discount-price";
import type { AppliedCoupon } from "@/server/discounts/schemas";
import type { CartDiscountLine, CartLine, PricedCart } from "./schemas";

/** A product as pricing needs it, with the PRODUCT and GLOBAL discounts in force for it. */
export type PricingProduct = {
  productId: number;
  name: string;
  price: Decimal;
  stock: number;
  image: string;
  lineDiscounts: DiscountTerms[];
};

export type CartDiscountCandidate = DiscountTerms & { source: CartDiscountLine["source"]; name: string };

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
): Pick<PricedCart, "items" | "itemCount" | "subtotal" | "discount" | "total"> {
  const items: CartLine[] = products.map((product) => {
    const quantity = quantities.get(product.productId) ?? 0;
    const applied = bestDiscount(product.price, product.lineDiscounts);
    const unitPrice = applied ? discountedPrice(product.price, applied) : product.price;
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
  return {
    items,
    itemCount: items.reduce((sum, line) => sum + line.quantity, 0),
    subtotal,
    discount,
    total: subtotal.minus(discount?.amount ?? 0),
  };
}

export function couponCandidate(coupon: AppliedCoupon): CartDiscountCandidate {
  return { source: "COUPON", name: coupon.code, value: coupon.value, pricingType: coupon.pricingType };
}
