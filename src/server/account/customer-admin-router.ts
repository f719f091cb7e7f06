import { adminProcedure, createTRPCRouter } from "@/server/trpc";
import { customerListInput, customerNotesInput, customerVipInput } from "./customer-admin-schemas";
import { eraseCustomerData, exportCustomerData } from "./customer-data-request";
import { getCustomer, setCustomerVip, updateCustomerNotes } from "./customer-page";
import { listCustomers } from "./customer-table";
import { customerIdInput } from "./schemas";

/**
 * Staff's customer admin (`admin.customers.*`): the customer table, one customer's page with staff's note, tags and
 * VIP, and a customer's data exported or erased on their request. The export is a mutation: it is logged.
 */
export const customerAdminRouter = createTRPCRouter({
  list: adminProcedure.input(customerListInput).query(({ ctx, input }) => listCustomers(ctx.db, input)),
  get: adminProcedure.input(customerIdInput).query(({ ctx, input }) => getCustomer(ctx.db, input.userId)),
  updateNotes: adminProcedure.input(customerNotesInput).mutation(({ ctx, input }) => updateCustomerNotes(ctx.db, input, { userId: ctx.session.user.id })),
  setVip: adminProcedure.input(customerVipInput).mutation(({ ctx, input }) => setCustomerVip(ctx.db, input, { userId: ctx.session.user.id })),
  exportData: adminProcedure.input(customerIdInput).mutation(({ ctx, input }) => exportCustomerData(ctx.db, input.userId, { userId: ctx.session.user.id })),
  erase: adminProcedure.input(customerIdInput).mutation(({ ctx, input }) => eraseCustomerData(ctx.db, input.userId, { userId: ctx.session.user.id })),
});
