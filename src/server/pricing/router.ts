import { storageImageUrl } from "@/server/catalog/images";
import { createTRPCRouter, publicProcedure } from "@/server/trpc";
import { quoteInput } from "./schemas";
import { priceItems } from "./service";

export const pricingRouter = createTRPCRouter({
  /** Prices a visitor's local cart on the server (names, piece prices, stock, totals), for the cart drawer. */
  quote: publicProcedure
    .input(quoteInput)
    .query(({ ctx, input }) => priceItems(ctx.db, input.items, { now: new Date(), imageUrl: storageImageUrl, userId: ctx.session?.user.id, caller: ctx.caller })),
});
