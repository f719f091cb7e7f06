import { storageImageUrl } from "@/server/catalog/images";
import { listShippingCountries } from "@/server/shipping/service";
import { createTRPCRouter, publicProcedure } from "@/server/trpc";
import { checkOut } from "./check-out";
import { checkoutShippingInput, placeOrderInput } from "./schemas";
import { checkoutQuote } from "./service";

export const checkoutRouter = createTRPCRouter({
  /** The countries the shop ships to, with their states or provinces. */
  countries: publicProcedure.query(({ ctx }) => listShippingCountries(ctx.db)),

  /** The priced cart and each shipping method's cost and dates for a destination. */
  quote: publicProcedure
    .input(checkoutShippingInput)
    .query(({ ctx, input }) => checkoutQuote(ctx.db, input, { userId: ctx.session?.user.id ?? null, caller: ctx.caller }, { imageUrl: storageImageUrl })),

  /** Places the order and starts its payment; the browser goes on to `checkoutUrl`. */
  placeOrder: publicProcedure
    .input(placeOrderInput)
    .mutation(({ ctx, input }) => checkOut(ctx.db, input, { userId: ctx.session?.user.id ?? null, caller: ctx.caller })),
});
