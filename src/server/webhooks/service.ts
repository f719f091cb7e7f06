import { createHash, timingSafeEqual } from "node:crypto";
import { env } from "@/env";
import type { Db } from "@/server/db/client";
import { webhookEvent } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import type { PayPalPayments } from "@/server/integrations/payments/paypal";
import { payPalOrderIdOfEvent, payPalWebhookEvent } from "@/server/integrations/payments/paypal";
import { isSettled, type PaymentsPort } from "@/server/integrations/payments/port";
import { mollieWebhookBody, type OnPaymentUpdate, type WebhookOutcome } from "./schemas";

/**
 * Payment webhooks: authenticate the call, fetch the payment's real status from the provider (a webhook body is
 * never trusted), record the status once, and hand it to the caller's callback in the same transaction.
 *
 * Idempotency: one `webhookEvent` row per provider, payment and status. A replayed callback, a provider's retry, or
 * a second event about the same change (PayPal sends several per payment) finds the row and changes nothing; an
 * out-of-order callback fetches the current status, which is either already recorded or the newer one.
 */

/** Whether a presented secret is the webhook secret, compared in constant time (digests make the lengths equal). */
export function webhookSecretMatches(presented: string | null | undefined, expected: string = env.WEBHOOK_SECRET): boolean {
  if (!presented) return false;
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(presented), digest(expected));
}

/**
 * A Mollie-style callback (Mollie's classic webhooks and the sandbox): `POST` of the form `id=<payment id>` to the
 * webhook URL we gave, which carries `?secret=`. Mollie signs nothing, so the secret in the URL is what proves the
 * call came through an address only we and the provider know.
 */
export async function handleMollieWebhook(
  db: Db,
  request: { url: string; body: string; payments: PaymentsPort; onPaymentUpdate: OnPaymentUpdate },
): Promise<WebhookOutcome> {
  if (!webhookSecretMatches(new URL(request.url).searchParams.get("secret"))) {
    throw new AppError("UNAUTHORIZED", "The webhook secret is missing or wrong");
  }
  const parsed = mollieWebhookBody.safeParse(Object.fromEntries(new URLSearchParams(request.body)));
  if (!parsed.success) throw new AppError("BAD_REQUEST", "The webhook body must be a form with the payment id");
  return applyProviderStatus(db, request.payments, parsed.data.id, null, request.onPaymentUpdate);
}

/**
 * A PayPal webhook: verified by asking PayPal, then resolved to the PayPal order it is about. An approved order is
 * captured here (idempotently, the return page may have done so already), since only a completed capture is paid.
 */
export async function handlePayPalWebhook(
  db: Db,
  request: { headers: Headers; rawBody: string; payments: PayPalPayments; onPaymentUpdate: OnPaymentUpdate },
): Promise<WebhookOutcome> {
  if (!(await request.payments.verifyWebhook(request.headers, request.rawBody))) {
    throw new AppError("UNAUTHORIZED", "PayPal did not confirm this webhook's signature");
  }
  let json: unknown;
  try {
    json = JSON.parse(request.rawBody);
  } catch {
    throw new AppError("BAD_REQUEST", "The webhook body is not JSON");
  }
  const event = payPalWebhookEvent.safeParse(json);
  if (!event.success) throw new AppError("BAD_REQUEST", "The webhook body is not a PayPal event");
  const orderId = payPalOrderIdOfEvent(event.data);
  if (!orderId) return { result: "ignored", externalPaymentId: null };
  return applyProviderStatus(db, request.payments, orderId, event.data.id, request.onPaymentUpdate);
}

async function applyProviderStatus(
  db: Db,
  payments: PaymentsPort,
  externalPaymentId: string,
  eventId: string | null,
  onPaymentUpdate: OnPaymentUpdate,
): Promise<WebhookOutcome> {
  let payment;
  try {
    payment = await payments.getPayment(externalPaymentId);
    if (payments.provider === "paypal" && payment.status === "authorized") payment = await payments.capturePayment(externalPaymentId);
  } catch (error) {
    // Mollie's advice: answer unknown ids like known ones, so the webhook cannot be used to probe for payments.
    if (error instanceof AppError && error.code === "NOT_FOUND") return { result: "ignored", externalPaymentId };
    throw error;
  }
  const status = payment.status;
  if (!isSettled(status)) return { result: "not-settled", externalPaymentId, status };

  return db.transaction(async (tx) => {
    const recorded = await tx
      .insert(webhookEvent)
      .values({ provider: payments.provider, externalPaymentId, status, eventId })
      .onConflictDoNothing({ target: [webhookEvent.provider, webhookEvent.externalPaymentId, webhookEvent.status] })
      .returning({ id: webhookEvent.id });
    if (recorded.length === 0) return { result: "duplicate" as const, externalPaymentId, status };
    await onPaymentUpdate(tx, {
      provider: payments.provider,
      externalPaymentId,
      status,
      amount: payment.amount,
      method: payment.method,
      orderId: payment.orderId,
    });
    return { result: "processed" as const, externalPaymentId, status };
  });
}
