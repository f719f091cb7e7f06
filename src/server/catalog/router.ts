import { getStorage } from "@/server/integrations/storage/storage";
import { createTRPCRouter, publicProcedure } from "@/server/trpc";
import { getManyProductsInput } from "./schemas";
import { getManyProducts } from "./service";

export const productRouter = createTRPCRouter({
  getMany: publicProcedure.input(getManyProductsInput).query(({ ctx, input }) => {
    const storage = getStorage();
    return getManyProducts(ctx.db, input, { imageUrl: (key) => storage.publicUrl(key) });
  }),
});
