import { adminProcedure, createTRPCRouter } from "@/server/trpc";
import { jobsOverview, retryFailedJob } from "./admin-service";
import { retryJobInput } from "./schemas";

export const jobsRouter = createTRPCRouter({
  list: adminProcedure.query(({ ctx }) => jobsOverview(ctx.db)),
  retry: adminProcedure.input(retryJobInput).mutation(({ ctx, input }) => retryFailedJob(ctx.db, ctx.session.user.id, input)),
});
