import { env } from "@/env";
import { getPayments, paymentWebhookUrl, shopOrigin } from "@/server/integrations/payments/payments";
import { getStorage } from "@/server/integrations/storage/storage";
import { gatewayForMethod } from "@/server/integrations/payments/port";
import { listShippingCountries } from "@/server/shipping/service";
import { createTRPCRouter, publicProcedure } from "@/server/trpc";
import { confirmationUrl, startPayment } from "./payment";
import { checkoutShippingInput, placeOrderInput } from "./schemas";
import { checkoutQuote, placeOrder } from "./service";

export const checkoutRouter = createTRPCRouter({
  /** The countries the shop ships to, with their states or provinces. */
  countries: publicProcedure.query(({ ctx }) => listShippingCountries(ctx.db)),

  /** The priced cart and each shipping method's cost and dates for a destination. */
  quote: publicProcedure
    .input(checkoutShippingInput)
    .query(({ ctx, input }) => {
      const storage = getStorage();
      return checkoutQuote(ctx.db, input, { userId: ctx.session?.user.id ?? null }, { imageUrl: (key) => storage.publicUrl(key) });
    }),

  /** Places the order and starts its payment; the browser goes on to `checkoutUrl`. */
  placeOrder: publicProcedure.input(placeOrderInput).mutation(async ({ ctx, input }) => {
    const placed = await placeOrder(ctx.db, input, { userId: ctx.session?.user.id ?? null });
    const origin = shopOrigin(ctx.headers);
    const gateway = gatewayForMethod(placed.paymentMethod);
    const returnUrl = await confirmationUrl(origin, placed.orderNumber, env.TOKEN_SECRET);
    const { checkoutUrl } = await startPayment(ctx.db, placed, {
      payments: getPayments(gateway, origin),
      redirectUrl: returnUrl,
      webhookUrl: paymentWebhookUrl(gateway, origin),
      shopName: env.SHOP_NAME,
    });
    return { orderNumber: placed.orderNumber, checkoutUrl };
  }),
});
