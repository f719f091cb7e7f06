import { shopUrl } from "@/server/config/shop-url";
import { getDb } from "@/server/db/client";
import { AppError } from "@/server/errors";
import { clientKey } from "@/server/http/client-address";
import { CALLBACK_BODY_LIMIT, payloadTooLarge, readTextWithin, requestIdOf } from "@/server/http/request-guards";
import { getMarketplace } from "@/server/integrations/marketplace/marketplace";
import { logger } from "@/server/logger";
import { allowNotificationCaller, answerMarketplaceChallenge, receiveMarketplaceNotification } from "@/server/marketplace/notifications";

export const dynamic = "force-dynamic";

/** The address eBay was given for this endpoint, which its challenge digest names: the shop's configured one. */
const endpointUrl = () => `${shopUrl()}/api/webhooks/ebay`;

const logFor = (request: Request) => logger.child({ event: "WEBHOOK", provider: "ebay", requestId: requestIdOf(request.headers) });

/** eBay's check of the endpoint: `GET ?challenge_code=…` is answered `{ challengeResponse }`. */
export async function GET(request: Request) {
  const code = new URL(request.url).searchParams.get("challenge_code") ?? "";
  try {
    return Response.json(answerMarketplaceChallenge(getMarketplace(), code, endpointUrl()));
  } catch (error) {
    if (error instanceof AppError && error.code === "BAD_REQUEST") return new Response(error.message, { status: 400 });
    logFor(request).error({ err: error }, "eBay endpoint challenge failed");
    return new Response("The challenge could not be answered", { status: 500 });
  }
}

/**
 * eBay's (and the sandbox marketplace's) notification: checked and turned into a queued order import, answered 204
 * at once. Unsigned is refused 412, a signature that does not hold 401, so eBay does not retry either; a failure of
 * ours is 500, which it retries.
 */
export async function POST(request: Request) {
  const log = logFor(request);
  const db = getDb();
  if (!(await allowNotificationCaller(db, clientKey(request.headers)))) {
    log.warn("eBay notification refused: too many from this address");
    return new Response("Too many notifications", { status: 429, headers: { "retry-after": "60" } });
  }
  if (!request.headers.get("x-ebay-signature")) {
    log.warn("eBay notification refused: no X-EBAY-SIGNATURE header");
    return new Response("The notification is not signed", { status: 412 });
  }
  const body = await readTextWithin(request, CALLBACK_BODY_LIMIT);
  if (body === null) return payloadTooLarge(CALLBACK_BODY_LIMIT);
  try {
    const notice = await receiveMarketplaceNotification(db, getMarketplace(), request.headers, body);
    log.info({ notice }, "eBay notification taken");
    return new Response(null, { status: 204 });
  } catch (error) {
    if (error instanceof AppError && (error.code === "UNAUTHORIZED" || error.code === "BAD_REQUEST")) {
      log.warn({ code: error.code }, error.message);
      return new Response(error.message, { status: error.code === "UNAUTHORIZED" ? 401 : 400 });
    }
    log.error({ err: error }, "eBay notification failed");
    return new Response("The notification could not be taken", { status: 500 });
  }
}
