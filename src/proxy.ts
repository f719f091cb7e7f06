import { NextResponse, type NextRequest } from "next/server";
import { env } from "@/env";
import { cachedPagePath } from "@/features/catalog/catalogue-addresses.mjs";
import { signInRedirect } from "@/lib/auth-paths";
import { contentSecurityPolicy, isPersonalPage, newNonce } from "@/server/http/security-headers";

// Auth.js keeps its database-session token under one of these cookies (the secure one on https).
const sessionCookies = ["__Secure-authjs.session-token", "authjs.session-token"];

/**
 * In front of the pages that need it (`config` below):
 * - Pages rendered per person get a Content-Security-Policy with a fresh nonce. Next.js reads the nonce from the
 *   request's policy header and puts it on its own scripts; the root layout passes `x-nonce` to the theme script.
 *   Catalogue pages keep the static policy of next.config.ts, so they can be cached (src/server/http/security-headers.ts).
 * - Catalogue addresses whose page is cached under another path (`/`, `/search?…`) are served from that path
 *   (src/features/catalog/catalogue-addresses.mjs). Behind the shop's front door (`npm start`) they arrive mapped
 *   already; this is for `next dev`, and for an address the front door does not read (an absolute request target).
 * - A visitor without a session cookie is sent from /admin to sign in at once, coming back to the exact address;
 *   everyone else passes with that address in a request header, so the admin layout can send an expired session to
 *   sign in as well. The role itself is checked by the layout and by every admin procedure.
 */
export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  const cachedPath = cachedPagePath(pathname, search);
  if (cachedPath) {
    // Next's own address for the request, with another path: a rewrite to any other origin is fetched over HTTP
    // (why scripts/serve.mjs gives Next no hostname of its own). The request goes on unchanged: its headers are
    // only copied when a personal page needs them changed, a cost a busy catalogue page should not pay.
    const target = request.nextUrl.clone();
    target.pathname = cachedPath;
    target.search = "";
    return NextResponse.rewrite(target);
  }

  const headers = new Headers(request.headers);
  let policy: string | null = null;
  if (isPersonalPage(pathname)) {
    const nonce = newNonce();
    policy = contentSecurityPolicy({ nonce, development: process.env.NODE_ENV === "development", imageBucket: env.GCS_BUCKET });
    headers.set("x-nonce", nonce);
    headers.set("content-security-policy", policy);
  }

  let response: NextResponse;
  if (pathname === "/admin" || pathname.startsWith("/admin/")) {
    if (!sessionCookies.some((name) => request.cookies.has(name))) {
      response = NextResponse.redirect(new URL(signInRedirect(pathname + search), request.url));
    } else {
      headers.set("x-admin-address", pathname + search);
      response = NextResponse.next({ request: { headers } });
    }
  } else {
    response = NextResponse.next({ request: { headers } });
  }
  if (policy) response.headers.set("content-security-policy", policy);
  return response;
}

// Only where it does something: the two cached catalogue addresses, the admin, and the personal pages that need a
// nonce (`personalPagePrefixes`; proxy.test.ts keeps the two lists together). Everything else, the product pages
// above all, is served without it: running it costs a cached page a third of its time. Next reads this list at
// build time, so it is written out rather than built from `personalPagePrefixes`.
export const config = {
  matcher: ["/", "/search", "/admin/:path*", "/checkout/:path*", "/account/:path*", "/cart/:path*", "/sign-in/:path*", "/sandbox/:path*", "/dev/:path*"],
};
