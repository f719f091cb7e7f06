import { adminProcedure, createTRPCRouter } from "@/server/trpc";
import { logbookEntryInput, logbookListInput, logbookMarkAllReadInput, logbookMarkReadInput } from "./schemas";
import { getLogbookEntry, listLogbook, markLogbookLevelRead, markLogbookRead } from "./service";

export const logbookRouter = createTRPCRouter({
  list: adminProcedure.input(logbookListInput).query(({ ctx, input }) => listLogbook(ctx.db, ctx.session.user.id, input)),
  get: adminProcedure.input(logbookEntryInput).query(({ ctx, input }) => getLogbookEntry(ctx.db, ctx.session.user.id, input.id)),
  markRead: adminProcedure
    .input(logbookMarkReadInput)
    .mutation(({ ctx, input }) => markLogbookRead(ctx.db, ctx.session.user.id, input.ids)),
  markAllRead: adminProcedure
    .input(logbookMarkAllReadInput)
    .mutation(({ ctx, input }) => markLogbookLevelRead(ctx.db, ctx.session.user.id, input.level)),
});
