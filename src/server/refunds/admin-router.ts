import { createTRPCRouter } from "@/server/trpc";

/** Refunds (admin.refunds.*): filled in by the refunds work. */
export const refundAdminRouter = createTRPCRouter({});
