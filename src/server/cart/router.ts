import { storageImageUrl } from "@/server/catalog/images";
import type { Caller } from "@/server/rate-limit/service";
import { createTRPCRouter, protectedProcedure } from "@/server/trpc";
import { deleteCartItemInput, discountValidateInput, getCartInput, mergeCartInput, updateCartInput } from "./schemas";
import { deleteCartItem, getCart, mergeCart, updateCartItem, validateDiscount } from "./service";

function pricingContext(ctx: { caller: Caller }) {
  return { now: new Date(), imageUrl: storageImageUrl, caller: ctx.caller };
}

/** The signed-in customer's saved cart (SPEC section 7); visitors keep theirs in the browser. */
export const cartRouter = createTRPCRouter({
  get: protectedProcedure.input(getCartInput).query(({ ctx, input }) =>
    getCart(ctx.db, ctx.session.user.id, { ...pricingContext(ctx), couponCode: input?.couponCode }),
  ),
  update: protectedProcedure.input(updateCartInput).mutation(({ ctx, input }) =>
    updateCartItem(ctx.db, ctx.session.user.id, input.update, { ...pricingContext(ctx), couponCode: input.couponCode }),
  ),
  delete: protectedProcedure.input(deleteCartItemInput).mutation(({ ctx, input }) =>
    deleteCartItem(ctx.db, ctx.session.user.id, input.productId, { ...pricingContext(ctx), couponCode: input.couponCode }),
  ),
  merge: protectedProcedure.input(mergeCartInput).mutation(async ({ ctx, input }) => {
    await mergeCart(ctx.db, ctx.session.user.id, input.currentCart);
    return { merged: true };
  }),
  discountValidate: protectedProcedure.input(discountValidateInput).mutation(({ ctx, input }) =>
    validateDiscount(ctx.db, ctx.session.user.id, input.code, pricingContext(ctx)),
  ),
});
