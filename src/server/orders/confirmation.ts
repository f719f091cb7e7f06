import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { order, paymentDetail } from "@/server/db/schema";
import type { MailPort } from "@/server/integrations/mail/port";
import type { WebhookOutcome } from "@/server/webhooks/schemas";
import { issueOrderToken } from "./order-token";
import { sendOrderConfirmation } from "./service";

/** Where a buyer sees an order: the confirmation page, with a signed token so a guest can open it too. */
export async function confirmationUrl(origin: string, orderNumber: string, tokenSecret: string): Promise<string> {
  const token = await issueOrderToken(tokenSecret, orderNumber);
  return `${origin.replace(/\/+$/, "")}/checkout/confirmation/${encodeURIComponent(orderNumber)}?token=${encodeURIComponent(token)}`;
}

/**
 * After a webhook has been handled (or the unpaid-order sweep found a payment paid): when it made an order paid,
 * send the order confirmation e-mail (once; see `sendOrderConfirmation`). An authorized payment is not paid until
 * captured, so it sends nothing. Runs after the webhook's transaction has committed, so a slow mail server never
 * holds the order's locks.
 */
export async function afterPaymentWebhook(
  db: Db,
  outcome: WebhookOutcome,
  options: { mail: MailPort; origin: string; tokenSecret: string; shopName: string },
): Promise<void> {
  if (outcome.result !== "processed" || outcome.status !== "paid") return;
  const [row] = await db
    .select({ orderNumber: order.orderNumber })
    .from(paymentDetail)
    .innerJoin(order, eq(order.id, paymentDetail.orderId))
    .where(eq(paymentDetail.externalPaymentId, outcome.externalPaymentId));
  if (!row) return;
  await sendOrderConfirmation(db, options.mail, row.orderNumber, await confirmationUrl(options.origin, row.orderNumber, options.tokenSecret), options.shopName);
}
