import { createTRPCRouter, publicProcedure } from "@/server/trpc";
import { getNavbarDataInput } from "./schemas";
import { getNavbarData } from "./service";

export const navbarRouter = createTRPCRouter({
  getNavbarData: publicProcedure.input(getNavbarDataInput).query(({ ctx }) => getNavbarData(ctx.db)),
});
