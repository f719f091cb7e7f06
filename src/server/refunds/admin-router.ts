import { adminProcedure, createTRPCRouter } from "@/server/trpc";
import { cancelOrderInput, createRefundInput, refundProposalInput, retryRefundInput } from "./schemas";
import { cancelOrder, createRefund, getRefundProposal, retryRefund } from "./service";

/**
 * Refunds from the order page (admin.refunds.*): what may still be refunded, giving a refund, retrying a failed one,
 * and cancelling an order, which pays a paid order's money back with it.
 */
export const refundAdminRouter = createTRPCRouter({
  proposal: adminProcedure.input(refundProposalInput).query(({ ctx, input }) => getRefundProposal(ctx.db, input.orderNumber)),
  create: adminProcedure.input(createRefundInput).mutation(({ ctx, input }) => createRefund(ctx.db, input, { userId: ctx.session.user.id })),
  retry: adminProcedure.input(retryRefundInput).mutation(({ ctx, input }) => retryRefund(ctx.db, input, { userId: ctx.session.user.id })),
  cancelOrder: adminProcedure.input(cancelOrderInput).mutation(({ ctx, input }) => cancelOrder(ctx.db, input, { userId: ctx.session.user.id })),
});
