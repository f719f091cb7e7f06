import { getDb } from "@/server/db/client";
import { CALLBACK_BODY_LIMIT, payloadTooLarge, readTextWithin } from "@/server/http/request-guards";
import { getLivePayPal } from "@/server/integrations/payments/payments";
import { settlePaymentAndConfirm } from "@/server/orders/confirmation";
import { respondToPaymentWebhook } from "@/server/orders/payment-webhook";
import { handlePayPalWebhook } from "@/server/webhooks/service";

export const dynamic = "force-dynamic";

/** PayPal's webhook, registered in PayPal's dashboard and verified by asking PayPal; not called in the sandbox. */
export async function POST(request: Request) {
  const payments = getLivePayPal();
  if (!payments) return new Response("PayPal webhooks are only taken with live integrations", { status: 404 });
  const rawBody = await readTextWithin(request, CALLBACK_BODY_LIMIT);
  if (rawBody === null) return payloadTooLarge(CALLBACK_BODY_LIMIT);
  return respondToPaymentWebhook(request, "paypal", () =>
    handlePayPalWebhook(getDb(), { headers: request.headers, rawBody, payments, onPaymentUpdate: settlePaymentAndConfirm() }),
  );
}
