import { createTRPCRouter, publicProcedure } from "@/server/trpc";
import { getNavbarDataInput } from "./schemas";
import { cachedNavbarData } from "./visitor-cache";

export const navbarRouter = createTRPCRouter({
  getNavbarData: publicProcedure.input(getNavbarDataInput).query(({ ctx }) => cachedNavbarData(ctx.db)),
});
