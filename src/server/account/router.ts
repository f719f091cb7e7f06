import { createTRPCRouter, protectedProcedure } from "@/server/trpc";
import { addressIdInput, addressInput, updateAddressInput, updateProfileInput } from "./schemas";
import * as account from "./service";

/**
 * The signed-in customer's own account: profile, address book and order history. One order of theirs
 * (`shared.account.order`) is orders' (`orders/customer-router.ts`), merged in beside these in root.ts.
 */
export const accountRouter = createTRPCRouter({
  profile: protectedProcedure.query(({ ctx }) => account.getProfile(ctx.db, ctx.session.user.id, new Date())),
  updateProfile: protectedProcedure.input(updateProfileInput).mutation(({ ctx, input }) => account.updateProfile(ctx.db, ctx.session.user.id, input)),
  countries: protectedProcedure.query(({ ctx }) => account.listCountries(ctx.db)),
  addresses: protectedProcedure.query(({ ctx }) => account.listAddresses(ctx.db, ctx.session.user.id)),
  createAddress: protectedProcedure.input(addressInput).mutation(({ ctx, input }) => account.createAddress(ctx.db, ctx.session.user.id, input)),
  updateAddress: protectedProcedure
    .input(updateAddressInput)
    .mutation(({ ctx, input }) => account.updateAddress(ctx.db, ctx.session.user.id, input.id, input.address)),
  setDefaultAddress: protectedProcedure.input(addressIdInput).mutation(({ ctx, input }) => account.setDefaultAddress(ctx.db, ctx.session.user.id, input.id)),
  deleteAddress: protectedProcedure.input(addressIdInput).mutation(({ ctx, input }) => account.deleteAddress(ctx.db, ctx.session.user.id, input.id)),
  orders: protectedProcedure.query(({ ctx }) => account.listOrders(ctx.db, ctx.session.user.id)),
});
