import { getDb } from "@/server/db/client";
import { CALLBACK_BODY_LIMIT, payloadTooLarge, readTextWithin } from "@/server/http/request-guards";
import { getPayments } from "@/server/integrations/payments/payments";
import { settlePaymentAndConfirm } from "@/server/orders/confirmation";
import { respondToPaymentWebhook } from "@/server/orders/payment-webhook";
import { handleMollieWebhook } from "@/server/webhooks/service";

export const dynamic = "force-dynamic";

/** Mollie's (and the sandbox's) payment webhook: `POST id=<payment id>` to the address with `?secret=`. */
export async function POST(request: Request) {
  const body = await readTextWithin(request, CALLBACK_BODY_LIMIT);
  if (body === null) return payloadTooLarge(CALLBACK_BODY_LIMIT);
  return respondToPaymentWebhook(request, "mollie", () =>
    handleMollieWebhook(getDb(), { url: request.url, body, payments: getPayments("mollie"), onPaymentUpdate: settlePaymentAndConfirm() }),
  );
}
