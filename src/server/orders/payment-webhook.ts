import "server-only";
import { env } from "@/env";
import { shopUrl } from "@/server/config/shop-url";
import { getDb } from "@/server/db/client";
import { AppError } from "@/server/errors";
import { getMail } from "@/server/integrations/mail/mail";
import { requestIdOf } from "@/server/http/request-guards";
import { logger } from "@/server/logger";
import type { OnPaymentUpdate, WebhookOutcome } from "@/server/webhooks/schemas";
import { afterPaymentWebhook } from "./confirmation";
import { applyPaymentUpdate } from "./service";

/** What the payment webhooks do with a settled payment: move its order (see `applyPaymentUpdate`). */
export const updateOrderPayment: OnPaymentUpdate = (tx, update) => applyPaymentUpdate(tx, update);

/**
 * Runs a payment webhook for a route and answers the provider: 200 when handled (also for replays and unknown
 * payments, which must not be told apart from known ones), 401 for a failed authentication, 400 for a body that
 * is not a webhook, 500 otherwise so the provider tries again. Once handled, a newly paid order's confirmation
 * e-mail goes out; a failure there is logged and does not make the provider retry what is already recorded.
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
  try {
    const db = getDb();
    await afterPaymentWebhook(db, outcome, { mail: getMail(db), origin: shopUrl(), tokenSecret: env.TOKEN_SECRET, shopName: env.SHOP_NAME });
  } catch (error) {
    log.error({ err: error }, "the order confirmation e-mail could not be sent");
  }
  return new Response(null, { status: 200 });
}
