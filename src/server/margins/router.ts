import { orderNumberInput } from "@/server/orders/admin-schemas";
import { adminProcedure, createTRPCRouter } from "@/server/trpc";
import { orderMarginByNumber } from "./order-margin";

/** Margins (`admin.margins.*`): one order's margin for its page; the dashboard's monthly figures are `admin.dashboard.margins`. */
export const marginsRouter = createTRPCRouter({
  order: adminProcedure.input(orderNumberInput).query(({ ctx, input }) => orderMarginByNumber(ctx.db, input.orderNumber)),
});
