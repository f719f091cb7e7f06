import { adminProcedure, createTRPCRouter } from "@/server/trpc";
import { queueLabels } from "./jobs";
import { createLabelsInput, markShippedInput, voidLabelInput } from "./schemas";
import { markShipped, voidLabel } from "./service";

/** Staff's fulfilment actions (admin.fulfilment.*): labels are bought by jobs, so a bulk request answers at once. */
export const fulfilmentRouter = createTRPCRouter({
  createLabels: adminProcedure.input(createLabelsInput).mutation(({ ctx, input }) => queueLabels(ctx.db, input.orderIds, { userId: ctx.session.user.id })),
  voidLabel: adminProcedure.input(voidLabelInput).mutation(({ ctx, input }) => voidLabel(ctx.db, input.orderId, { userId: ctx.session.user.id })),
  markShipped: adminProcedure.input(markShippedInput).mutation(({ ctx, input }) => markShipped(ctx.db, input.orderIds, { userId: ctx.session.user.id })),
});
