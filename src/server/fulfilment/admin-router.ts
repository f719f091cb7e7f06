import { adminProcedure, createTRPCRouter } from "@/server/trpc";
import { makeInvoices } from "./documents/service";
import { queueLabels } from "./jobs";
import { createLabelsInput, makeInvoicesInput, markShippedInput, voidLabelInput } from "./schemas";
import { voidLabel } from "./labels";
import { markShipped } from "./tracking";

/**
 * Staff's fulfilment actions (admin.fulfilment.*): labels are bought by jobs, so a bulk request answers at once.
 * Invoice numbers are given here, by a call that says so, and never by printing (SECURITY-REVIEW N-L1).
 */
export const fulfilmentRouter = createTRPCRouter({
  createLabels: adminProcedure.input(createLabelsInput).mutation(({ ctx, input }) => queueLabels(ctx.db, input.orderIds, { userId: ctx.session.user.id })),
  voidLabel: adminProcedure.input(voidLabelInput).mutation(({ ctx, input }) => voidLabel(ctx.db, input.orderId, { userId: ctx.session.user.id })),
  markShipped: adminProcedure.input(markShippedInput).mutation(({ ctx, input }) => markShipped(ctx.db, input.orderIds, { userId: ctx.session.user.id })),
  makeInvoices: adminProcedure.input(makeInvoicesInput).mutation(({ ctx, input }) => makeInvoices(ctx.db, input, { userId: ctx.session.user.id })),
});
