import { customerAddresses } from "@/server/account/customer-lookup";
import { customerIdInput } from "@/server/account/schemas";
import { adminProcedure, createTRPCRouter } from "@/server/trpc";
import { getEditableOrder } from "./editable-order";
import { quoteManualOrder } from "./manual-order-pricing";
import { createCounterSale } from "./counter-sale";
import {
  createCounterSaleInput,
  createManualOrderInput,
  manualOrderNumberInput,
  manualOrderQuoteInput,
  markManualOrderPaidInput,
  updateManualOrderInput,
} from "./manual-order-schemas";
import { createManualOrder, markManualOrderPaid, updateManualOrder } from "./manual-order-service";

/**
 * Staff's manual orders (`admin.manualOrder.*`): a phone or counter sale entered by hand, and edits of unshipped orders.
 * The customer is found with staff's customer search (`account/customer-search-router.ts`).
 */
export const manualOrderRouter = createTRPCRouter({
  customerAddresses: adminProcedure.input(customerIdInput).query(({ ctx, input }) => customerAddresses(ctx.db, input.userId)),
  /** The live preview: lines, shipping, totals and status as saving would store them, and what would refuse it. */
  quote: adminProcedure.input(manualOrderQuoteInput).query(({ ctx, input }) => quoteManualOrder(ctx.db, input)),
  create: adminProcedure.input(createManualOrderInput).mutation(({ ctx, input }) => createManualOrder(ctx.db, input, { userId: ctx.session.user.id })),
  /** A counter sale, paid and collected in the shop: saved shipped-and-collected at once. */
  createCounterSale: adminProcedure.input(createCounterSaleInput).mutation(({ ctx, input }) => createCounterSale(ctx.db, input, { userId: ctx.session.user.id })),
  get: adminProcedure.input(manualOrderNumberInput).query(({ ctx, input }) => getEditableOrder(ctx.db, input.orderNumber)),
  update: adminProcedure.input(updateManualOrderInput).mutation(({ ctx, input }) => updateManualOrder(ctx.db, input, { userId: ctx.session.user.id })),
  markPaid: adminProcedure.input(markManualOrderPaidInput).mutation(({ ctx, input }) => markManualOrderPaid(ctx.db, input, { userId: ctx.session.user.id })),
});
