import { createTRPCRouter, protectedProcedure } from "@/server/trpc";
import { customerOrderInput } from "./schemas";
import { getCustomerOrder } from "./view";

/**
 * One of the signed-in customer's orders (`shared.account.order`), as the one read model shows it. Merged into the
 * account's router in root.ts, so the path stays the account's while account imports nothing from orders.
 */
export const customerOrderRouter = createTRPCRouter({
  order: protectedProcedure.input(customerOrderInput).query(({ ctx, input }) => getCustomerOrder(ctx.db, ctx.session.user.id, input.id)),
});
