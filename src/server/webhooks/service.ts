import "server-only";
import { createHash, timingSafeEqual } from "node:crypto";
import { eq } from "drizzle-orm";
import { env } from "@/env";
import type { Db } from "@/server/db/client";
import { webhookEvent } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { foundOrNull } from "@/server/http/found-or-null";
import type { PayPalPayments } from "@/server/integrations/payments/paypal";
import { payPalOrderIdOfEvent, payPalWebhookEvent } from "@/server/integrations/payments/paypal-records";
import { isSettled, type PaymentsPort, type ProviderPayment } from "@/server/integrations/payments/port";
import { mollieWebhookBody, type OnPaymentUpdate, type WebhookOutcome } from "./schemas";

/**
 * Payment webhooks: authenticate the call, fetch the payment's real status from the provider (a webhook body is
 * never trusted), record the status once, and hand it to the caller's callback in the same transaction. An
 * authorized payment is captured only when the callback asks for it (see `actOnProviderPayment`).
 *
 * Idempotency: one `webhookEvent` row per provider, payment and status. A replayed callback, a provider's retry, or
 * a second event about the same change (PayPal sends several per payment) finds the row and changes nothing; an
 * out-of-order callback fetches the current status, which is either already recorded or the newer one. The one
 * status not kept is an authorized payment the shop is capturing, so that a retry can ask for the capture again.
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
 * captured here when our order still waits for it (idempotently, the return page may have done so already), since
 * only a completed capture is paid.
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
  const payment = await foundOrNull(payments.getPayment(externalPaymentId));
  // Mollie's advice: answer unknown ids like known ones, so the webhook cannot be used to probe for payments.
  if (!payment) return { result: "ignored", externalPaymentId };
  return actOnProviderPayment(db, { payments, payment, eventId, onPaymentUpdate });
}

/**
 * Acts once on a payment's status as the provider reported it: records the status and hands it to `onPaymentUpdate`
 * in one transaction. An authorized payment is captured only when `onPaymentUpdate` asks for it, that is after our
 * order was locked and found waiting for exactly this payment, never before, so no money is taken for an order
 * cancelled meanwhile. What the capture leads to is acted on in turn: paid settles the order, while a capture the
 * provider is still carrying out leaves it waiting for the provider's next word. The webhooks use this, and so does
 * the unpaid-order sweep when it finds a payment settled whose webhook never came: the webhook is then a duplicate.
 */
export async function actOnProviderPayment(
  db: Db,
  input: { payments: PaymentsPort; payment: ProviderPayment; eventId: string | null; onPaymentUpdate: OnPaymentUpdate },
): Promise<WebhookOutcome> {
  const { payments, eventId, onPaymentUpdate } = input;
  const { externalPaymentId } = input.payment;
  const capturing = { result: "capturing" as const, externalPaymentId, status: "authorized" as const };
  let acted = await recordStatus(db, payments.provider, input.payment, eventId, onPaymentUpdate);
  if (acted === "capture") {
    const captured = await payments.capturePayment(externalPaymentId);
    if (captured.status === "authorized") return capturing;
    acted = await recordStatus(db, payments.provider, captured, eventId, onPaymentUpdate);
  }
  return acted === "capture" ? capturing : acted;
}

async function recordStatus(
  db: Db,
  provider: PaymentsPort["provider"],
  payment: ProviderPayment,
  eventId: string | null,
  onPaymentUpdate: OnPaymentUpdate,
): Promise<WebhookOutcome | "capture"> {
  const { externalPaymentId, status } = payment;
  if (!isSettled(status)) return { result: "not-settled", externalPaymentId, status };

  return db.transaction(async (tx) => {
    const [recorded] = await tx
      .insert(webhookEvent)
      .values({ provider, externalPaymentId, status, eventId })
      .onConflictDoNothing({ target: [webhookEvent.provider, webhookEvent.externalPaymentId, webhookEvent.status] })
      .returning({ id: webhookEvent.id });
    if (!recorded) return { result: "duplicate" as const, externalPaymentId, status };
    const followUp = await onPaymentUpdate(tx, { provider, externalPaymentId, status, amount: payment.amount, method: payment.method, orderId: payment.orderId });
    if (followUp === "capture" && status === "authorized") {
      // Not recorded until the capture has settled it, so that a retried webhook or the sweep asks for the capture
      // again if this one fails; providers take one capture per payment, whoever asks. An authorized payment that
      // stays recorded is one left uncaptured on purpose.
      await tx.delete(webhookEvent).where(eq(webhookEvent.id, recorded.id));
      return "capture" as const;
    }
    return { result: "processed" as const, externalPaymentId, status };
  });
}
