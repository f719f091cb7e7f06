import { adminProcedure, createTRPCRouter } from "@/server/trpc";
import { createRefundInput, refundProposalInput, retryRefundInput } from "./schemas";
import { createRefund, getRefundProposal, retryRefund } from "./service";

/** Refunds from the order page (admin.refunds.*): what may still be refunded, giving a refund, retrying a failed one. */
export const refundAdminRouter = createTRPCRouter({
  proposal: adminProcedure.input(refundProposalInput).query(({ ctx, input }) => getRefundProposal(ctx.db, input.orderNumber)),
  create: adminProcedure.input(createRefundInput).mutation(({ ctx, input }) => createRefund(ctx.db, input, { userId: ctx.session.user.id })),
  retry: adminProcedure.input(retryRefundInput).mutation(({ ctx, input }) => retryRefund(ctx.db, input, { userId: ctx.session.user.id })),
});
