import "server-only";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { env } from "@/env";
import { shopUrl } from "@/server/config/shop-url";
import type { Db } from "@/server/db/client";
import { order, paymentDetail } from "@/server/db/schema";
import { getMail } from "@/server/integrations/mail/mail";
import { defineJob } from "@/server/jobs/define";
import { enqueueJob } from "@/server/jobs/queue";
import type { OnPaymentUpdate } from "@/server/webhooks/schemas";
import { paidOrderStatuses } from "./order-machine";
import { issueOrderToken } from "./order-token";
import { applyPaymentUpdate, sendOrderConfirmation } from "./service";

/** Where a buyer sees an order: the confirmation page, with a signed token so a guest can open it too. */
export async function confirmationUrl(origin: string, orderNumber: string, tokenSecret: string): Promise<string> {
  const token = await issueOrderToken(tokenSecret, orderNumber);
  return `${origin.replace(/\/+$/, "")}/checkout/confirmation/${encodeURIComponent(orderNumber)}?token=${encodeURIComponent(token)}`;
}

/**
 * Sends a paid order's confirmation e-mail, once (`sendOrderConfirmation` claims `orderEmailSent` first). A mail
 * server that fails gives the claim back and throws, so the queue tries again later.
 */
export const orderConfirmationEmailJob = defineJob({
  name: "order-confirmation-email",
  schema: z.object({ orderNumber: z.string().min(1) }),
  retry: { limit: 5, delaySeconds: 30, backoff: true },
  expireInSeconds: 120,
  async run({ orderNumber }, { db }) {
    await sendOrderConfirmation(db, getMail(db), orderNumber, await confirmationUrl(shopUrl(), orderNumber, env.TOKEN_SECRET), env.SHOP_NAME);
  },
});

export const orderConfirmationJobs = [orderConfirmationEmailJob];

/** Queues the confirmation e-mail of an order that has just been paid; one waits per order at most. */
export async function queueOrderConfirmation(db: Db, orderNumber: string): Promise<void> {
  await enqueueJob(db, orderConfirmationEmailJob, { orderNumber }, { singletonKey: orderNumber });
}

/**
 * What the payment webhooks do with a settled payment (`applyPaymentUpdate`), and when that made its order paid, the
 * order's confirmation e-mail is queued in the same transaction: it goes out if and only if the payment is recorded.
 * An authorized payment is not paid until captured, so it queues nothing. `now` is for tests.
 */
export function settlePaymentAndConfirm(now?: Date): OnPaymentUpdate {
  return async (tx, update) => {
    const followUp = await applyPaymentUpdate(tx, update, now);
    if (update.status !== "paid") return followUp;
    const [paid] = await tx
      .select({ orderNumber: order.orderNumber, status: order.status })
      .from(paymentDetail)
      .innerJoin(order, eq(order.id, paymentDetail.orderId))
      .where(eq(paymentDetail.externalPaymentId, update.externalPaymentId));
    if (paid && (paidOrderStatuses as readonly string[]).includes(paid.status)) await queueOrderConfirmation(tx, paid.orderNumber);
    return followUp;
  };
}
