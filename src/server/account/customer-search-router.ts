import { adminProcedure, createTRPCRouter } from "@/server/trpc";
import { searchCustomers } from "./customer-lookup";
import { customerSearchInput } from "./schemas";

/**
 * Staff's customer search, where staff choose a customer: the manual order's customer (`admin.manualOrder.*`) and a
 * customer discount's customers (`admin.discounts.*`). root.ts merges it into both routers: discounts sit below
 * account (the profile shows the customer's discount), so the discounts router cannot import it.
 */
export const customerSearchRouter = createTRPCRouter({
  searchCustomers: adminProcedure.input(customerSearchInput).query(({ ctx, input }) => searchCustomers(ctx.db, input.search)),
});
