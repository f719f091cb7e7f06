import { adminProcedure, createTRPCRouter } from "@/server/trpc";
import { notificationIdInput, notificationListInput } from "./schemas";
import { listNotifications, markAllNotificationsRead, markNotificationRead } from "./service";

export const notificationRouter = createTRPCRouter({
  list: adminProcedure.input(notificationListInput).query(({ ctx, input }) => listNotifications(ctx.db, input)),
  markRead: adminProcedure
    .input(notificationIdInput)
    .mutation(({ ctx, input }) => markNotificationRead(ctx.db, input.id, ctx.session.user.id)),
  markAllRead: adminProcedure.mutation(({ ctx }) => markAllNotificationsRead(ctx.db, ctx.session.user.id)),
});
