import "server-only";
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { env } from "@/env";
import { shopUrl } from "@/server/config/shop-url";
import type { Db } from "@/server/db/client";
import { orderDetail } from "@/server/db/schema";
import { getMail } from "@/server/integrations/mail/mail";
import type { MailPort } from "@/server/integrations/mail/port";
import { renderShippingConfirmationEmail } from "@/server/integrations/mail/shipping-confirmation";
import { defineJob } from "@/server/jobs/define";
import { logChange } from "@/server/logbook/service";
import { confirmationUrl } from "@/server/orders/confirmation";
import { getOrderView } from "@/server/orders/view";

/** What the shipping e-mail needs besides the order: where the order page is, the token secret and the shop's name. */
export type ShippingEmailOptions = { mail: MailPort; origin: string; tokenSecret: string; shopName: string };

/**
 * Sends the shipping e-mail of a SHIPPED order once, and marks it sent. As with the order confirmation, the mark is
 * claimed before sending, so a job that runs twice never sends twice; when sending fails the claim is given back and
 * the failure logged, and the job's retry sends it. Returns whether it sent the e-mail now.
 */
export async function sendShippingEmail(db: Db, orderNumber: string, options: ShippingEmailOptions): Promise<boolean> {
  const view = await getOrderView(db, orderNumber);
  if (view.status !== "SHIPPED") return false;
  const claimed = await db
    .update(orderDetail)
    .set({ shippingEmailSent: true })
    .where(and(eq(orderDetail.orderId, view.orderId), eq(orderDetail.shippingEmailSent, false)))
    .returning({ id: orderDetail.id });
  if (claimed.length === 0) return false;
  const logged = { userId: null, eventType: "EMAIL", entityType: "ORDER", entityId: view.orderId } as const;
  const orderUrl = await confirmationUrl(options.origin, orderNumber, options.tokenSecret);
  try {
    await options.mail.send(renderShippingConfirmationEmail(view, orderUrl, options.shopName));
  } catch (error) {
    await db.transaction(async (tx) => {
      await tx.update(orderDetail).set({ shippingEmailSent: false }).where(eq(orderDetail.orderId, view.orderId));
      await logChange(tx, {
        ...logged,
        logLevel: "ERROR",
        errorData: { message: error instanceof Error ? error.message : String(error) },
        description: `The shipping e-mail of order ${orderNumber} could not be sent`,
      });
    });
    throw error;
  }
  await logChange(db, {
    ...logged,
    newState: { shippingEmailSent: true, to: view.email, trackingNumber: view.shipping.trackingNumber },
    description: `Shipping e-mail of ${orderNumber} sent to ${view.email}`,
  });
  return true;
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
