import { storageImageUrl } from "@/server/catalog/images";
import { adminProcedure, createTRPCRouter } from "@/server/trpc";
import { orderListInput, orderNumberInput, transitionOrdersInput } from "./admin-schemas";
import { getAdminOrder } from "./admin-order-page";
import { listOrders } from "./order-table";
import { transitionOrders } from "./staff-status-changes";

/** Staff's order admin (`admin.orders.*`): the order table, one order's page, and status changes in bulk. */
export const orderAdminRouter = createTRPCRouter({
  list: adminProcedure.input(orderListInput).query(({ ctx, input }) => listOrders(ctx.db, input)),
  get: adminProcedure.input(orderNumberInput).query(({ ctx, input }) => getAdminOrder(ctx.db, input.orderNumber, storageImageUrl)),
  transition: adminProcedure.input(transitionOrdersInput).mutation(({ ctx, input }) => transitionOrders(ctx.db, input.orderIds, input.to, { userId: ctx.session.user.id })),
});
