import { createTRPCRouter, publicProcedure } from "@/server/trpc";
import { getManyProductsInput } from "./schemas";
import { cachedProductListing } from "./visitor-cache";

export const productRouter = createTRPCRouter({
  getMany: publicProcedure.input(getManyProductsInput).query(({ ctx, input }) => cachedProductListing(ctx.db, input)),
});
