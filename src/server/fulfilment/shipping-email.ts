import "server-only";
import { env } from "@/env";
import { shopUrl } from "@/server/config/shop-url";
import type { Db } from "@/server/db/client";
import { renderShippingConfirmationEmail } from "./shipping-confirmation-email";
import { queueMail } from "@/server/messages/outbox";
import { confirmationUrl } from "@/server/orders/confirmation";
import { getOrderView } from "@/server/orders/view";

/**
 * Writes the shipping e-mail of a SHIPPED order to the outbox (src/server/messages), in the caller's transaction: the
 * one that makes the order SHIPPED, so that it goes exactly when the order really shipped. The e-mail is keyed by the
 * order's number: writing it again writes nothing more.
 */
export async function queueShippingEmail(tx: Db, orderNumber: string): Promise<void> {
  const view = await getOrderView(tx, orderNumber);
  // A marketplace order without the buyer's address: the marketplace tells its buyer, from the tracking number we upload.
  if (view.status !== "SHIPPED" || !view.email) return;
  const message = renderShippingConfirmationEmail(view, await confirmationUrl(shopUrl(), orderNumber, env.TOKEN_SECRET), env.SHOP_NAME);
  await queueMail(tx, {
    ...message,
    idempotencyKey: message.idempotencyKey ?? `shipping-confirmation/${orderNumber}`,
    orderId: view.orderId,
    orderFlag: "shippingEmailSent",
    description: `Shipping e-mail of ${orderNumber} sent to ${view.email}`,
  });
}

