import { adminProcedure, createTRPCRouter } from "@/server/trpc";
import { getDashboard, getDashboardMargins } from "./dashboard-service";
import { getIntegrationsOverview, testConnection } from "./integrations-service";
import { testConnectionInput } from "./integrations-schemas";
import { dashboardMarginsInput } from "./schemas";
import { getSidebarInformation } from "./sidebar-service";

export const sidebarRouter = createTRPCRouter({
  getSidebarInformation: adminProcedure.query(({ ctx }) => getSidebarInformation(ctx.db, ctx.session.user.id)),
});

export const dashboardRouter = createTRPCRouter({
  get: adminProcedure.query(({ ctx }) => getDashboard(ctx.db, ctx.session.user.id)),
  margins: adminProcedure.input(dashboardMarginsInput).query(({ ctx, input }) => getDashboardMargins(ctx.db, input)),
});

/** The owner's integrations page (/admin/settings/integrations); a Test connection is a mutation: it calls out and is logged. */
export const integrationsRouter = createTRPCRouter({
  get: adminProcedure.query(({ ctx }) => getIntegrationsOverview(ctx.db)),
  testConnection: adminProcedure.input(testConnectionInput).mutation(({ ctx, input }) => testConnection(ctx.db, ctx.session.user.id, input.port)),
});
