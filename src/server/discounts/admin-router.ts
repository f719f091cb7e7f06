import { adminProcedure, createTRPCRouter } from "@/server/trpc";
import {
  createDiscountInput,
  discountActiveInput,
  discountIdInput,
  discountListInput,
  discountTargetPreviewInput,
  updateDiscountInput,
} from "./admin-schemas";
import { createDiscount, getDiscount, listDiscounts, setDiscountActive, updateDiscount } from "./admin-service";
import { discountTargetChoices, previewDiscountTargets } from "./discount-targets";

/**
 * Discounts (`admin.discounts.*`): the four kinds, their windows, targets and active switch, with uses and revenue.
 * The customers a USER discount can be given to are found with staff's customer search (`account/customer-search-router.ts`).
 */
export const discountAdminRouter = createTRPCRouter({
  list: adminProcedure.input(discountListInput).query(({ ctx, input }) => listDiscounts(ctx.db, input)),
  get: adminProcedure.input(discountIdInput).query(({ ctx, input }) => getDiscount(ctx.db, input.id)),
  create: adminProcedure.input(createDiscountInput).mutation(({ ctx, input }) => createDiscount(ctx.db, input, ctx.session.user.id)),
  update: adminProcedure.input(updateDiscountInput).mutation(({ ctx, input: { id, ...values } }) => updateDiscount(ctx.db, id, values, ctx.session.user.id)),
  setActive: adminProcedure.input(discountActiveInput).mutation(({ ctx, input }) => setDiscountActive(ctx.db, input.id, input.active, ctx.session.user.id)),
  /** What saving these targets would do: how many products or customers, and how many move from other discounts. */
  previewTargets: adminProcedure.input(discountTargetPreviewInput).query(({ ctx, input }) => previewDiscountTargets(ctx.db, input)),
  targetChoices: adminProcedure.query(({ ctx }) => discountTargetChoices(ctx.db)),
});
