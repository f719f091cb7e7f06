import "server-only";
import { z } from "zod";
import { env } from "@/env";
import { shopUrl } from "@/server/config/shop-url";
import type { Db } from "@/server/db/client";
import { getMail } from "@/server/integrations/mail/mail";
import type { MailPort } from "@/server/integrations/mail/port";
import { renderShippingConfirmationEmail } from "@/server/integrations/mail/shipping-confirmation";
import { defineJob } from "@/server/jobs/define";
import { confirmationUrl } from "@/server/orders/confirmation";
import { sendOrderEmailOnce } from "@/server/orders/order-email-once";
import { getOrderView } from "@/server/orders/view";

/** What the shipping e-mail needs besides the order: where the order page is, the token secret and the shop's name. */
export type ShippingEmailOptions = { mail: MailPort; origin: string; tokenSecret: string; shopName: string };

/**
 * Sends the shipping e-mail of a SHIPPED order once (see sendOrderEmailOnce), so a job that runs twice never sends
 * twice and a failed send is retried by the job. Returns whether it sent the e-mail now.
 */
export async function sendShippingEmail(db: Db, orderNumber: string, options: ShippingEmailOptions): Promise<boolean> {
  const view = await getOrderView(db, orderNumber);
  // A marketplace order without the buyer's address: the marketplace tells its buyer, from the tracking number we upload.
  if (view.status !== "SHIPPED" || !view.email) return false;
  const orderUrl = await confirmationUrl(options.origin, orderNumber, options.tokenSecret);
  return sendOrderEmailOnce(db, {
    orderId: view.orderId,
    flag: "shippingEmailSent",
    send: () => options.mail.send(renderShippingConfirmationEmail(view, orderUrl, options.shopName)),
    failed: `The shipping e-mail of order ${orderNumber} could not be sent`,
    sent: { newState: { to: view.email, trackingNumber: view.shipping.trackingNumber }, description: `Shipping e-mail of ${orderNumber} sent to ${view.email}` },
  });
}

/** Queued in the transaction that makes an order SHIPPED, so the e-mail goes only for an order that really shipped. */
export const shippingEmailJob = defineJob({
  name: "shipping-email",
  schema: z.object({ orderNumber: z.string().min(1).max(40) }),
  retry: { limit: 5, delaySeconds: 60, backoff: true },
  expireInSeconds: 120,
  async run({ orderNumber }, { db }) {
    await sendShippingEmail(db, orderNumber, { mail: getMail(db), origin: shopUrl(), tokenSecret: env.TOKEN_SECRET, shopName: env.SHOP_NAME });
  },
});
