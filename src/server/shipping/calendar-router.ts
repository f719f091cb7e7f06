import { adminProcedure, createTRPCRouter } from "@/server/trpc";
import { addShippingDay, listShippingDays, removeShippingDay } from "./calendar";
import { shippingCalendarRangeInput, shippingDayInput } from "./schemas";

/** The shipping calendar for staff (`admin.shippingCalendar.*`): the days parcels go out. */
export const shippingCalendarRouter = createTRPCRouter({
  list: adminProcedure.input(shippingCalendarRangeInput).query(({ ctx, input }) => listShippingDays(ctx.db, input)),
  add: adminProcedure.input(shippingDayInput).mutation(({ ctx, input }) => addShippingDay(ctx.db, input, { userId: ctx.session.user.id })),
  remove: adminProcedure.input(shippingDayInput).mutation(({ ctx, input }) => removeShippingDay(ctx.db, input, { userId: ctx.session.user.id })),
});
