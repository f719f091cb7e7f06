import { z } from "zod";
import { rowId } from "@/lib/id";
import { cartItemsInput, couponCodeInput, type PricedCart } from "@/server/pricing/schemas";

export const getCartInput = z.object({ couponCode: couponCodeInput.optional() }).optional();

export const updateCartInput = z.object({
  /** `quantity` is a change: +1 from a plus button, -1 from minus, or the difference a typed number makes. */
  update: z.object({
    productId: rowId,
    quantity: z.number().int().min(-999).max(999).refine((delta) => delta !== 0, "must change the quantity"),
  }),
  couponCode: couponCodeInput.optional(),
});
export type UpdateCartInput = z.infer<typeof updateCartInput>;

export const deleteCartItemInput = z.object({ productId: rowId, couponCode: couponCodeInput.optional() });

export const mergeCartInput = z.object({ currentCart: cartItemsInput });

export const discountValidateInput = z.object({ code: couponCodeInput });

/** A changed cart, and a sentence when the server had to change what was asked (not enough stock). */
export type CartUpdateResult = { cart: PricedCart; notice: string | null };
