import { adminProcedure, createTRPCRouter } from "@/server/trpc";
import {
  countryCodeInput,
  countryListInput,
  saveSurchargeBandsInput,
  surchargeBandIdInput,
  surchargeBandInput,
  updateCountryCostsInput,
  updateSurchargeBandInput,
} from "./costs-schemas";
import {
  createSurchargeBand,
  deleteSurchargeBand,
  getCountryCosts,
  listCountryCosts,
  listSurchargeBands,
  saveSurchargeBands,
  updateCountryCosts,
  updateSurchargeBand,
} from "./costs-service";

/** Shipping costs for staff (`admin.shippingCosts.*`): the surcharge bands, and each country's and region's shipping. */
export const shippingCostsRouter = createTRPCRouter({
  bands: adminProcedure.query(({ ctx }) => listSurchargeBands(ctx.db)),
  createBand: adminProcedure.input(surchargeBandInput).mutation(({ ctx, input }) => createSurchargeBand(ctx.db, input, { userId: ctx.session.user.id })),
  updateBand: adminProcedure.input(updateSurchargeBandInput).mutation(({ ctx, input }) => updateSurchargeBand(ctx.db, input, { userId: ctx.session.user.id })),
  deleteBand: adminProcedure.input(surchargeBandIdInput).mutation(({ ctx, input }) => deleteSurchargeBand(ctx.db, input, { userId: ctx.session.user.id })),
  saveBands: adminProcedure.input(saveSurchargeBandsInput).mutation(({ ctx, input }) => saveSurchargeBands(ctx.db, input, { userId: ctx.session.user.id })),

  countries: adminProcedure.input(countryListInput).query(({ ctx, input }) => listCountryCosts(ctx.db, input)),
  country: adminProcedure.input(countryCodeInput).query(({ ctx, input }) => getCountryCosts(ctx.db, input)),
  updateCountry: adminProcedure.input(updateCountryCostsInput).mutation(({ ctx, input }) => updateCountryCosts(ctx.db, input, { userId: ctx.session.user.id })),
});
