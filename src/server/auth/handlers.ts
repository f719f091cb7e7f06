import NextAuth from "next-auth";
import type { NextRequest } from "next/server";
import { SIGN_IN_PATH } from "@/lib/auth-paths";
import type { Db } from "@/server/db/client";
import { createAuthConfig, type AuthDependencies } from "./config";
import { checkSignInEmailLimit, clearSignInEmailLimit, clientAddress } from "./sign-in-limits";

type Handler = (request: NextRequest) => Promise<Response>;

const sessionCookie = /(^|,\s*)(__Secure-)?authjs\.session-token=[^;]/;

/**
 * The /api/auth route: Auth.js, with the sign-in e-mail rate limit in front of it (kept in the database, per
 * address and per client) and the limit cleared once a link has signed someone in.
 */
export function createAuthHandlers(dependencies: () => AuthDependencies): { GET: Handler; POST: Handler; auth: ReturnType<typeof NextAuth>["auth"] } {
  const { handlers, auth } = NextAuth(() => createAuthConfig(dependencies()));
  const db = (): Db => dependencies().db;

  const POST: Handler = async (request) => {
    if (request.nextUrl.pathname.endsWith("/signin/nodemailer")) {
      const form = await request.clone().formData().catch(() => null);
      const email = form?.get("email");
      if (typeof email === "string" && email.trim()) {
        const limited = await checkSignInEmailLimit(db(), email, clientAddress(request.headers), new Date());
        if (limited) return rateLimitedResponse(request, limited.retryAfterMs);
      }
    }
    return handlers.POST(request);
  };

  const GET: Handler = async (request) => {
    const response = await handlers.GET(request);
    if (request.nextUrl.pathname.endsWith("/callback/nodemailer")) {
      const email = request.nextUrl.searchParams.get("email");
      const signedIn = response.headers.getSetCookie().some((cookie) => sessionCookie.test(cookie));
      if (email && signedIn) await clearSignInEmailLimit(db(), email, clientAddress(request.headers));
    }
    return response;
  };

  return { GET, POST, auth };
}

function rateLimitedResponse(request: NextRequest, retryAfterMs: number): Response {
  const target = new URL(SIGN_IN_PATH, request.url);
  target.searchParams.set("error", "EmailRateLimit");
  const headers = { "Retry-After": String(Math.max(1, Math.ceil(retryAfterMs / 1000))) };
  // The browser client asks for the address as JSON (X-Auth-Return-Redirect) and reads `error` from it.
  if (request.headers.get("x-auth-return-redirect") === "1") {
    return Response.json({ url: target.toString() }, { status: 429, headers });
  }
  return new Response(null, { status: 303, headers: { ...headers, Location: target.toString() } });
}
