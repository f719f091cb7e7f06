import { createTRPCRouter } from "@/server/trpc";

/** Shipping costs (admin.shippingCosts.*): filled in by the shipping costs work. */
export const shippingCostsRouter = createTRPCRouter({});
