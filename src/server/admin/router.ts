import { adminProcedure, createTRPCRouter } from "@/server/trpc";
import { getDashboard, getDashboardMargins } from "./dashboard-service";
import { dashboardMarginsInput } from "./schemas";
import { getSidebarInformation } from "./sidebar-service";

export const sidebarRouter = createTRPCRouter({
  getSidebarInformation: adminProcedure.query(({ ctx }) => getSidebarInformation(ctx.db, ctx.session.user.id)),
});

export const dashboardRouter = createTRPCRouter({
  get: adminProcedure.query(({ ctx }) => getDashboard(ctx.db, ctx.session.user.id)),
  margins: adminProcedure.input(dashboardMarginsInput).query(({ ctx, input }) => getDashboardMargins(ctx.db, input)),
});
