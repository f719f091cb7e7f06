import "server-only";
import { z } from "zod";
import { env } from "@/env";
import { shopUrl } from "@/server/config/shop-url";
import type { Db } from "@/server/db/client";
import { renderShippingConfirmationEmail } from "./shipping-confirmation-email";
import { defineJob } from "@/server/jobs/define";
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

/**
 * Jobs of this name were queued by the shop before its e-mails went through the outbox; one still waiting writes its
 * e-mail there now. Nothing queues it any more.
 */
export const shippingEmailJob = defineJob({
  name: "shipping-email",
  schema: z.object({ orderNumber: z.string().min(1).max(40) }),
  retry: { limit: 5, delaySeconds: 60, backoff: true },
  expireInSeconds: 120,
  async run({ orderNumber }, { db }) {
    await db.transaction((tx) => queueShippingEmail(tx, orderNumber));
  },
});
