import "server-only";
import { env } from "@/env";
import { shopUrl } from "@/server/config/shop-url";
import type { Db } from "@/server/db/client";
import { getPayments, paymentWebhookUrl } from "@/server/integrations/payments/payments";
import { countCouponLook } from "@/server/discounts/service";
import { gatewayForMethod } from "@/server/integrations/payments/port";
import { limitCaller } from "@/server/rate-limit/service";
import { confirmationUrl } from "@/server/orders/confirmation";
import { startPayment } from "./payment";
import type { PlaceOrderInput } from "./schemas";
import { placeOrder, type Buyer } from "./service";

/**
 * The checkout's one workflow: count the try, place the order (within the caller's limit on orders and the caps on
 * what unpaid orders hold, SECURITY-REVIEW H4 and N-H2), then start its payment with the provider, on the shop's
 * configured address for the return page and the webhook. Returns where the buyer goes to pay.
 *
 * The try is counted before the order's transaction, against the caller's generous limit on tries and, for the
 * discount code it names, their limit on codes: a refused order rolls back what its transaction counted, and these
 * must stand whatever the answer, or placing orders bound to fail would try codes for free.
 */
export async function checkOut(db: Db, input: PlaceOrderInput, buyer: Buyer): Promise<{ orderNumber: string; checkoutUrl: string }> {
  if (buyer.caller) {
    await limitCaller(db, "placeOrderTry", buyer.caller);
    if (input.couponCode?.trim()) await countCouponLook(db, input.couponCode, buyer.caller, new Date());
  }
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
