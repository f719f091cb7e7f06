import { adminProcedure, createTRPCRouter } from "@/server/trpc";
import { getBulkOfferProgress } from "./service";

export const ebayRouter = createTRPCRouter({
  getBulkProductEbayOffersProgress: adminProcedure.query(({ ctx }) => getBulkOfferProgress(ctx.db)),
});
