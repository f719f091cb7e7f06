import { createTRPCRouter, publicProcedure } from "@/server/trpc";
import { storageImageUrl } from "./images";
import { getManyProductsInput } from "./schemas";
import { getManyProducts } from "./service";

export const productRouter = createTRPCRouter({
  getMany: publicProcedure.input(getManyProductsInput).query(({ ctx, input }) => getManyProducts(ctx.db, input, { imageUrl: storageImageUrl })),
});
