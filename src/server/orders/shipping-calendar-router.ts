import { listShippingDays } from "@/server/shipping/calendar";
import { closingDayInput, shippingCalendarRangeInput, shippingDayInput } from "@/server/shipping/schemas";
import { adminProcedure, createTRPCRouter } from "@/server/trpc";
import { addClosingDay, addShippingDay, removeClosingDay, removeShippingDay } from "./shipment-replan";

/**
 * The shipping calendar for staff (`admin.shippingCalendar.*`): the days parcels go out. It sits with orders because
 * a change re-plans the orders waiting to ship (`./shipment-replan.ts`).
 */
export const shippingCalendarRouter = createTRPCRouter({
  list: adminProcedure.input(shippingCalendarRangeInput).query(({ ctx, input }) => listShippingDays(ctx.db, input)),
  add: adminProcedure.input(shippingDayInput).mutation(({ ctx, input }) => addShippingDay(ctx.db, input, { userId: ctx.session.user.id })),
  remove: adminProcedure.input(shippingDayInput).mutation(({ ctx, input }) => removeShippingDay(ctx.db, input, { userId: ctx.session.user.id })),
  addClosingDay: adminProcedure.input(closingDayInput).mutation(({ ctx, input }) => addClosingDay(ctx.db, input, { userId: ctx.session.user.id })),
  removeClosingDay: adminProcedure.input(shippingDayInput).mutation(({ ctx, input }) => removeClosingDay(ctx.db, input, { userId: ctx.session.user.id })),
});
