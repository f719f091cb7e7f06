import "server-only";
import { productRouter } from "@/server/catalog/router";
import { navbarRouter } from "@/server/navbar/router";
import { createCallerFactory, createTRPCRouter } from "@/server/trpc";

/** The router tree; its paths are SPEC section 7's (`shared.product.getMany`, `shared.cart.get`, `admin.*`). */
export const appRouter = createTRPCRouter({
  shared: createTRPCRouter({
    product: productRouter,
    navbar: navbarRouter,
  }),
});

export type AppRouter = typeof appRouter;

export const createCaller = createCallerFactory(appRouter);
