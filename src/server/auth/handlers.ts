import { Auth, createActionURL, setEnvDefaults } from "@auth/core";
import { SIGN_IN_PATH } from "@/lib/auth-paths";
import type { Db } from "@/server/db/client";
import { createAuthConfig, type AuthDependencies } from "./config";
import { checkSignInEmailLimit, clearSignInEmailLimit, clientAddress } from "./sign-in-limits";

type Handler = (request: Request) => Promise<Response>;

const sessionCookie = /(^|,\s*)(__Secure-)?authjs\.session-token=[^;]/;

/**
 * The shop's own address for a request: AUTH_URL when set, else the Host the browser used (with a trusted host).
 * Next.js rewrites 127.x addresses in a request's URL to "localhost", which would put sign-in links and cookies on
 * another host than the one the customer is on; Auth.js's own helper reads the address from the headers instead.
 */
function withPublicOrigin(request: Request, config: Parameters<typeof createActionURL>[4]): Request {
  const url = new URL(request.url);
  const origin = createActionURL("session", url.protocol, request.headers, process.env, config).origin;
  return new Request(`${origin}${url.pathname}${url.search}`, request);
}

/**
 * The /api/auth route: Auth.js (core, so that the request keeps the address the customer used), with the sign-in
 * e-mail rate limit in front of it (kept in the database, per address and per client) and the limit cleared once a
 * link has signed someone in.
 */
export function createAuthHandlers(dependencies: () => AuthDependencies): { GET: Handler; POST: Handler } {
  function handle(request: Request): Promise<Response> {
    const config = createAuthConfig(dependencies());
    // Reads AUTH_URL, AUTH_TRUST_HOST and provider settings Auth.js documents for its environment.
    setEnvDefaults(process.env, config);
    return Auth(withPublicOrigin(request, config), config);
  }
  const db = (): Db => dependencies().db;

  const POST: Handler = async (request) => {
    if (new URL(request.url).pathname.endsWith("/signin/nodemailer")) {
      const form = await request.clone().formData().catch(() => null);
      const email = form?.get("email");
      if (typeof email === "string" && email.trim()) {
        const limited = await checkSignInEmailLimit(db(), email, clientAddress(request.headers), new Date());
        if (limited) return rateLimitedResponse(request, limited.retryAfterMs);
      }
    }
    return handle(request);
  };

  const GET: Handler = async (request) => {
    const response = await handle(request);
    const url = new URL(request.url);
    if (url.pathname.endsWith("/callback/nodemailer")) {
      const email = url.searchParams.get("email");
      const signedIn = response.headers.getSetCookie().some((cookie) => sessionCookie.test(cookie));
      if (email && signedIn) await clearSignInEmailLimit(db(), email, clientAddress(request.headers));
    }
    return response;
  };

  return { GET, POST };
}

function rateLimitedResponse(request: Request, retryAfterMs: number): Response {
  const target = new URL(SIGN_IN_PATH, request.url);
  target.searchParams.set("error", "EmailRateLimit");
  const headers = { "Retry-After": String(Math.max(1, Math.ceil(retryAfterMs / 1000))) };
  // The browser client asks for the address as JSON (X-Auth-Return-Redirect) and reads `error` from it.
  if (request.headers.get("x-auth-return-redirect") === "1") {
    return Response.json({ url: target.pathname + target.search }, { status: 429, headers });
  }
  return new Response(null, { status: 303, headers: { ...headers, Location: target.pathname + target.search } });
}
