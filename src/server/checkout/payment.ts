import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { order, paymentDetail } from "@/server/db/schema";
import type { MailPort } from "@/server/integrations/mail/port";
import type { PaymentsPort } from "@/server/integrations/payments/port";
import { logChange } from "@/server/logbook/service";
import { issueOrderToken } from "@/server/orders/order-token";
import { sendOrderConfirmation, transitionOrder } from "@/server/orders/service";
import type { WebhookOutcome } from "@/server/webhooks/schemas";
import type { PlacedOrder } from "./schemas";

/** Where a buyer sees an order: the confirmation page, with a signed token so a guest can open it too. */
export async function confirmationUrl(origin: string, orderNumber: string, tokenSecret: string): Promise<string> {
  const token = await issueOrderToken(tokenSecret, orderNumber);
  return `${origin.replace(/\/+$/, "")}/checkout/confirmation/${encodeURIComponent(orderNumber)}?token=${encodeURIComponent(token)}`;
}

/**
 * Starts paying a placed order through the payments port and remembers the provider's payment id on the order's
 * payment detail (the webhook finds the order by it). One idempotency key per order, so a retried request gets the
 * same payment. When the provider refuses, the order is cancelled at once, which returns its stock, and the error
 * goes to the buyer.
 */
export async function startPayment(
  db: Db,
  placed: PlacedOrder,
  options: { payments: PaymentsPort; redirectUrl: string; webhookUrl: string; shopName: string },
): Promise<{ checkoutUrl: string }> {
  try {
    const payment = await options.payments.createPayment({
      orderId: placed.orderId,
      amount: placed.total,
      description: `${options.shopName} order ${placed.orderNumber}`,
      method: placed.paymentMethod,
      redirectUrl: options.redirectUrl,
      webhookUrl: options.webhookUrl,
      idempotencyKey: `order-${placed.orderId}`,
    });
    await db.transaction(async (tx) => {
      await tx.update(paymentDetail).set({ externalPaymentId: payment.externalPaymentId }).where(eq(paymentDetail.orderId, placed.orderId));
      await logChange(tx, {
        userId: null,
        eventType: "ORDER",
        entityType: "PAYMENT_DETAIL",
        entityId: placed.orderId,
        newState: { provider: options.payments.provider, externalPaymentId: payment.externalPaymentId, status: payment.status },
        description: `Payment ${payment.externalPaymentId} started for order ${placed.orderNumber} (${placed.paymentMethod})`,
      });
    });
    return { checkoutUrl: payment.checkoutUrl };
  } catch (error) {
    await db.transaction((tx) =>
      transitionOrder(tx, placed.orderId, "CANCELLED", { userId: null, description: `The payment could not be started: ${error instanceof Error ? error.message : String(error)}` }),
    );
    throw error;
  }
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
