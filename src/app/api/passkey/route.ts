import { ZodError } from "zod";
import { passkeyAuthenticationOptions, signInWithPasskey } from "@/server/auth/passkeys";
import { passkeyAuthenticationInput } from "@/server/auth/second-factor-schemas";
import { sessionCookieName } from "@/server/auth/session-token";
import { shopUrl } from "@/server/config/shop-url";
import { getDb } from "@/server/db/client";
import { AppError } from "@/server/errors";
import { clientKey } from "@/server/http/client-address";
import { FORM_BODY_LIMIT, isSameOriginRequest, payloadTooLarge, readTextWithin, requestIdOf } from "@/server/http/request-guards";
import { logger } from "@/server/logger";
import { limitCaller } from "@/server/rate-limit/service";

export const dynamic = "force-dynamic";

/**
 * Signing in with a passkey, beside Auth.js's /api/auth (which has no passkey sign-in fit to use): GET gives the
 * options for the browser's passkey prompt, POST checks its answer and sets the session cookie Auth.js would set. Both
 * are limited per client, as everything anonymous that costs the shop something is.
 */

const answerJson = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  Response.json(body, { status, headers: { "cache-control": "private, no-store", ...headers } });

function refusal(error: unknown, requestId: string): Response {
  if (error instanceof AppError) {
    const status = { BAD_REQUEST: 400, TOO_MANY_REQUESTS: 429, PRECONDITION_FAILED: 412 }[error.code as string] ?? 400;
    return answerJson({ error: error.message }, status);
  }
  if (error instanceof ZodError) return answerJson({ error: "That is not a passkey's answer." }, 400);
  logger.error({ err: error, requestId }, "passkey sign-in failed");
  return answerJson({ error: `Something went wrong on our side; quote request ${requestId}.` }, 500);
}

const caller = (request: Request) => ({ client: clientKey(request.headers), visitorId: null });

export async function GET(request: Request) {
  const requestId = requestIdOf(request.headers);
  try {
    const db = getDb();
    await limitCaller(db, "passkeySignIn", caller(request));
    return answerJson(await passkeyAuthenticationOptions(db, null));
  } catch (error) {
    return refusal(error, requestId);
  }
}

export async function POST(request: Request) {
  const requestId = requestIdOf(request.headers);
  if (!isSameOriginRequest(request.headers)) return answerJson({ error: "This request did not come from the shop's own pages." }, 403);
  const body = await readTextWithin(request, FORM_BODY_LIMIT);
  if (body === null) return payloadTooLarge(FORM_BODY_LIMIT);
  try {
    const db = getDb();
    await limitCaller(db, "passkeySignIn", caller(request));
    const { token, expires } = await signInWithPasskey(db, passkeyAuthenticationInput.parse(JSON.parse(body)));
    const secure = shopUrl().startsWith("https:");
    const cookie = [`${sessionCookieName(shopUrl())}=${token}`, "Path=/", "HttpOnly", "SameSite=Lax", `Expires=${expires.toUTCString()}`, ...(secure ? ["Secure"] : [])].join("; ");
    return answerJson({ ok: true }, 200, { "set-cookie": cookie });
  } catch (error) {
    return refusal(error instanceof SyntaxError ? new AppError("BAD_REQUEST", "That is not a passkey's answer.") : error, requestId);
  }
}
