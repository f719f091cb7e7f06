import { getStorage } from "@/server/integrations/storage/storage";
import { createTRPCRouter, publicProcedure } from "@/server/trpc";
import { quoteInput } from "./schemas";
import { priceItems } from "./service";

export const pricingRouter = createTRPCRouter({
  /** Prices a visitor's local cart on the server (names, piece prices, stock, totals), for the cart drawer. */
  quote: publicProcedure.input(quoteInput).query(({ ctx, input }) => {
    const storage = getStorage();
    return priceItems(ctx.db, input.items, { now: new Date(), imageUrl: (key) => storage.publicUrl(key), userId: ctx.session?.user.id, caller: ctx.caller });
  }),
});
