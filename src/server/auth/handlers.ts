import "server-only";
import { Auth, setEnvDefaults } from "@auth/core";
import { SIGN_IN_PATH } from "@/lib/auth-paths";
import { clientKey } from "@/server/http/client-address";
import { FORM_BODY_LIMIT, payloadTooLarge, readBodyWithin } from "@/server/http/request-guards";
import { verifyVisitorToken } from "@/server/token/service";
import { createAuthConfig, type AuthDependencies } from "./config";
import { checkSignInEmailLimit, clearSignInEmailLimit, signInEmailAddress } from "./sign-in-limits";

type Handler = (request: Request) => Promise<Response>;

const sessionCookie = /(^|,\s*)(__Secure-)?authjs\.session-token=[^;]/;

/**
 * The request as Auth.js sees it: on the shop's configured address, whatever Host or X-Forwarded-Host the caller
 * sent. Auth.js builds the e-mailed sign-in link and its redirects from this URL, so a forged Host can never put a
 * token on somebody else's server (SECURITY-REVIEW H3). Next.js also rewrites 127.x in a request's URL to
 * "localhost"; the configured address does not depend on that either.
 */
function onShopOrigin(request: Request, origin: string): Request {
  const url = new URL(request.url);
  return new Request(`${origin}${url.pathname}${url.search}`, request);
}

/**
 * The /api/auth route: Auth.js (core), with the sign-in e-mail rate limit in front of it (kept in the database,
 * per address, client and visitor) and the address's count cleared once its link has signed someone in.
 */
export function createAuthHandlers(dependencies: () => AuthDependencies): { GET: Handler; POST: Handler } {
  // The dependencies are built once per request (they include a mail port) and shared by the limit and Auth.js.
  function handle(request: Request, deps: AuthDependencies): Promise<Response> {
    const config = createAuthConfig(deps);
    // Provider settings Auth.js documents for its environment (AUTH_GOOGLE_ID, ...). The address is ours, so the
    // host is trusted: Auth.js never reads it from the request's headers (see onShopOrigin).
    setEnvDefaults(process.env, config, true);
    config.trustHost = true;
    return Auth(onShopOrigin(request, deps.origin), config);
  }
  const POST: Handler = async (unread) => {
    // Sign-in, sign-out and session posts are a few form fields: a body past that is refused before it is read
    // whole, by us or by Auth.js (SECURITY-REVIEW N-M3).
    const body = await readBodyWithin(unread, FORM_BODY_LIMIT);
    if (!body) return payloadTooLarge(FORM_BODY_LIMIT);
    const request = new Request(unread.url, { method: unread.method, headers: unread.headers, body });
    const deps = dependencies();
    if (new URL(request.url).pathname.endsWith("/signin/nodemailer")) {
      const body = await readBody(request);
      const email = signInEmailAddress(body);
      // Refused here rather than by Auth.js, so that every address that could receive a link is counted: Auth.js
      // would cut "victim@x.test,1" down to the victim's address, a new key for each suffix (H2).
      if (!email) return signInErrorResponse(request, "EmailSignin", 400);
      const now = new Date();
      const visitor = typeof body.visitorToken === "string" ? await verifyVisitorToken(deps.visitorTokenSecret, body.visitorToken, now) : null;
      const limited = await checkSignInEmailLimit(deps.db, email, { client: clientKey(request.headers), visitorId: visitor?.visitorId ?? null }, now);
      if (limited) return signInErrorResponse(request, "EmailRateLimit", 429, limited.retryAfterMs);
    }
    return handle(request, deps);
  };

  const GET: Handler = async (request) => {
    const deps = dependencies();
    const response = await handle(request, deps);
    const url = new URL(request.url);
    if (url.pathname.endsWith("/callback/nodemailer")) {
      const email = signInEmailAddress({ email: url.searchParams.get("email") });
      const signedIn = response.headers.getSetCookie().some((cookie) => sessionCookie.test(cookie));
      if (email && signedIn) await clearSignInEmailLimit(deps.db, email);
    }
    return response;
  };

  return { GET, POST };
}

/** The body as Auth.js reads it: a form or JSON. Any other type carries no address Auth.js would send to. */
async function readBody(request: Request): Promise<Record<string, unknown>> {
  const type = request.headers.get("content-type") ?? "";
  try {
    if (type.includes("application/json")) {
      const json: unknown = await request.clone().json();
      return json && typeof json === "object" ? (json as Record<string, unknown>) : {};
    }
    if (type.includes("application/x-www-form-urlencoded")) return Object.fromEntries(new URLSearchParams(await request.clone().text()));
  } catch {
    // Not readable as its type says: no address.
  }
  return {};
}

/**
 * Sends the browser back to the sign-in page with an error, as Auth.js does: the browser client asks for the
 * address as JSON (X-Auth-Return-Redirect) and reads `error` from it; a plain form post follows a redirect.
 */
function signInErrorResponse(request: Request, error: string, status: 400 | 429, retryAfterMs?: number): Response {
  const target = `${SIGN_IN_PATH}?${new URLSearchParams({ error })}`;
  const headers: Record<string, string> = retryAfterMs === undefined ? {} : { "Retry-After": String(Math.max(1, Math.ceil(retryAfterMs / 1000))) };
  if (request.headers.get("x-auth-return-redirect") === "1") return Response.json({ url: target }, { status, headers });
  return new Response(null, { status: 303, headers: { ...headers, Location: target } });
}
