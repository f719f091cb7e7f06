import { z } from "zod";
import { env } from "@/env";
import { createTRPCRouter, publicProcedure } from "@/server/trpc";
import { manageVisitorToken } from "./service";

export const tokenRouter = createTRPCRouter({
  /** Issues or refreshes the visitor token (SPEC section 7); the browser sends `token` undefined when it has none. */
  manage: publicProcedure
    .input(z.object({ token: z.string().max(4096).optional() }))
    .mutation(({ input }) => manageVisitorToken(env.TOKEN_SECRET, input.token, new Date())),
});
