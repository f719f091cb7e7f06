import "server-only";
import { env } from "@/env";
import { shopUrl } from "@/server/config/shop-url";
import type { Db } from "@/server/db/client";
import { getPayments, paymentWebhookUrl } from "@/server/integrations/payments/payments";
import { gatewayForMethod } from "@/server/integrations/payments/port";
import { limitCaller } from "@/server/rate-limit/service";
import { confirmationUrl } from "@/server/orders/confirmation";
import { startPayment } from "./payment";
import type { PlaceOrderInput } from "./schemas";
import { placeOrder, type Buyer } from "./service";

/**
 * The checkout's one workflow: within the caller's limit on placing orders (an order holds stock and starts a
 * payment, SECURITY-REVIEW H4), place the order, then start its payment with the provider, on the shop's configured
 * address for the return page and the webhook. Returns where the buyer goes to pay.
 */
export async function checkOut(db: Db, input: PlaceOrderInput, buyer: Buyer): Promise<{ orderNumber: string; checkoutUrl: string }> {
  if (buyer.caller) await limitCaller(db, "placeOrder", buyer.caller);
  const placed = await placeOrder(db, input, buyer);
  const gateway = gatewayForMethod(placed.paymentMethod);
  const { checkoutUrl } = await startPayment(db, placed, {
    payments: getPayments(gateway),
    redirectUrl: await confirmationUrl(shopUrl(), placed.orderNumber, env.TOKEN_SECRET),
    webhookUrl: paymentWebhookUrl(gateway),
    shopName: env.SHOP_NAME,
  });
  return { orderNumber: placed.orderNumber, checkoutUrl };
}
