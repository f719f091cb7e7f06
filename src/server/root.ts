import "server-only";
import { accountRouter } from "@/server/account/router";
import { cartRouter } from "@/server/cart/router";
import { productRouter } from "@/server/catalog/router";
import { mapsRouter } from "@/server/maps/router";
import { pricingRouter } from "@/server/pricing/router";
import { tokenRouter } from "@/server/token/router";
import { createCallerFactory, createTRPCRouter } from "@/server/trpc";

/** The router tree; its paths are SPEC section 7's (`shared.product.getMany`, `shared.cart.get`, `admin.*`). */
export const appRouter = createTRPCRouter({
  shared: createTRPCRouter({
    product: productRouter,
    cart: cartRouter,
    pricing: pricingRouter,
    token: tokenRouter,
    maps: mapsRouter,
    account: accountRouter,
  }),
});

export type AppRouter = typeof appRouter;

export const createCaller = createCallerFactory(appRouter);
