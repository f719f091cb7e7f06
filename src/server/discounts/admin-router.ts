import { createTRPCRouter } from "@/server/trpc";

/** Discounts (admin.discounts.*): filled in by the discounts work. */
export const discountAdminRouter = createTRPCRouter({});
