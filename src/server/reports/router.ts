import { adminProcedure, createTRPCRouter } from "@/server/trpc";
import { agedStock } from "./aged-stock";
import { salesByMonth } from "./sales-by-month";
import { agedStockInput, salesReportInput, sellersInput } from "./schemas";
import { sellers } from "./sellers";
import { sellThrough } from "./sell-through";
import { stockValuation } from "./stock-valuation";

/** The owner's reports (`admin.reports.*`); each has its CSV at `/admin/reports/export?report=…`. */
export const reportsRouter = createTRPCRouter({
  sales: adminProcedure.input(salesReportInput).query(({ ctx, input }) => salesByMonth(ctx.db, input)),
  stockValue: adminProcedure.query(({ ctx }) => stockValuation(ctx.db)),
  agedStock: adminProcedure.input(agedStockInput).query(({ ctx, input }) => agedStock(ctx.db, input)),
  sellThrough: adminProcedure.query(({ ctx }) => sellThrough(ctx.db)),
  sellers: adminProcedure.input(sellersInput).query(({ ctx, input }) => sellers(ctx.db, input)),
});
