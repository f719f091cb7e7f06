import "server-only";
import { AppError } from "@/server/errors";
import { requestIdOf } from "@/server/http/request-guards";
import { logger } from "@/server/logger";
import type { WebhookOutcome } from "@/server/webhooks/schemas";

/**
 * Runs a payment webhook for a route and answers the provider: 200 when handled (also for replays and unknown
 * payments, which must not be told apart from known ones), 401 for a failed authentication, 400 for a body that
 * is not a webhook, 500 otherwise so the provider tries again. The routes pass `settlePaymentAndConfirm()`
 * (orders/confirmation.ts) as `onPaymentUpdate`, which queues a newly paid order's confirmation e-mail in the
 * transaction that records the payment.
 */
export async function respondToPaymentWebhook(request: Request, provider: string, handle: () => Promise<WebhookOutcome>): Promise<Response> {
  const log = logger.child({ event: "WEBHOOK", provider, requestId: requestIdOf(request.headers) });
  let outcome: WebhookOutcome;
  try {
    outcome = await handle();
  } catch (error) {
    if (error instanceof AppError && (error.code === "UNAUTHORIZED" || error.code === "BAD_REQUEST")) {
      log.warn({ code: error.code }, error.message);
      return new Response(error.message, { status: error.code === "UNAUTHORIZED" ? 401 : 400 });
    }
    log.error({ err: error }, "payment webhook failed");
    return new Response("The webhook could not be handled", { status: 500 });
  }
  log.info(outcome, `payment webhook: ${outcome.result}`);
  return new Response(null, { status: 200 });
}
