import { adminProcedure, createTRPCRouter } from "@/server/trpc";
import { getDashboard } from "./dashboard-service";
import { getSidebarInformation } from "./sidebar-service";

export const sidebarRouter = createTRPCRouter({
  getSidebarInformation: adminProcedure.query(({ ctx }) => getSidebarInformation(ctx.db, ctx.session.user.id)),
});

export const dashboardRouter = createTRPCRouter({
  get: adminProcedure.query(({ ctx }) => getDashboard(ctx.db, ctx.session.user.id)),
});
