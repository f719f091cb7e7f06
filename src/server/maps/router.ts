import { z } from "zod";
import { getGeo } from "@/server/integrations/geo/geo";
import { createTRPCRouter, publicProcedure } from "@/server/trpc";
import { countryFromPosition } from "./service";

export const mapsRouter = createTRPCRouter({
  /** SPEC section 7 keeps the historical name; the country comes from the browser's position, not the address. */
  getCountryFromIpAddress: publicProcedure
    .input(z.object({ lat: z.number().min(-90).max(90), lng: z.number().min(-180).max(180), accuracy: z.number().min(0) }))
    .mutation(({ ctx, input }) => countryFromPosition(ctx.db, getGeo(), input, ctx.caller)),
});
