import type { Decimal } from "decimal.js";
import { z } from "zod";
import { MAX_CART_LINES } from "@/lib/cart";
import { rowId } from "@/lib/id";
import { text } from "@/lib/text";
import type { DiscountType } from "@/lib/enums";
import type { ProductForSale } from "@/server/catalog/product-for-sale";
import type { AppliedCoupon } from "@/server/discounts/schemas";

/** A cart line as the browser names it: which product, how many. Any price it sends is not read. */
export const cartItemInput = z.object({
  productId: rowId,
  quantity: z.number().int().min(1).max(999),
});
export type CartItemInput = z.infer<typeof cartItemInput>;

/** A cart of at most MAX_CART_LINES distinct products; one product appears once (quantities of repeats are added up). */
export const cartItemsInput = z.array(cartItemInput).max(MAX_CART_LINES);

export const couponCodeInput = text().trim().min(1, "Enter a code").max(64);

export const quoteInput = z.object({ items: cartItemsInput });
export type QuoteInput = z.infer<typeof quoteInput>;

/** One line of a priced cart: everything the drawer shows, computed on the server from the database. */
export type CartLine = ProductForSale & {
  /** Price of one piece after the best PRODUCT or GLOBAL discount in force; equal to `price` without one. */
  unitPrice: Decimal;
  /** How that discount is shown (-15%, -€5.00), or null. */
  discountLabel: string | null;
  quantity: number;
  lineTotal: Decimal;
  image: string;
};

/** The one cart-level discount that applies (see docs/pricing.md). */
export type CartDiscountLine = {
  source: Extract<DiscountType, "USER" | "COUPON">;
  name: string;
  label: string;
  amount: Decimal;
};


export type PricedCart = {
  items: CartLine[];
  /** Pieces in the cart (the sum of quantities). */
  itemCount: number;
  subtotal: Decimal;
  discount: CartDiscountLine | null;
  /** Subtotal minus the cart discount; shipping is chosen and added at checkout. */
  total: Decimal;
  /** The coupon the cart was priced with, when one was asked for and is valid. */
  coupon: AppliedCoupon | null;
  /** Why an asked-for coupon was not applied, in words for the customer. */
  couponMessage: string | null;
  /** Products asked for that are no longer sold in the shop; the browser drops them from its copy. */
  unavailableProductIds: number[];
};
