import { NextResponse, type NextRequest } from "next/server";
import { signInRedirect } from "@/lib/auth-paths";

// Auth.js keeps its database-session token under one of these cookies (the secure one on https).
const sessionCookies = ["__Secure-authjs.session-token", "authjs.session-token"];

/**
 * In front of every /admin page: a visitor without a session cookie is sent to sign in at once, coming back to the
 * exact address; everyone else passes with that address in a request header, so the admin layout can send an
 * expired session to sign in as well. The role itself is checked by the layout and by every admin procedure.
 */
export function proxy(request: NextRequest) {
  const address = request.nextUrl.pathname + request.nextUrl.search;
  if (!sessionCookies.some((name) => request.cookies.has(name))) {
    return NextResponse.redirect(new URL(signInRedirect(address), request.url));
  }
  const headers = new Headers(request.headers);
  headers.set("x-admin-address", address);
  return NextResponse.next({ request: { headers } });
}

export const config = { matcher: ["/admin", "/admin/:path*"] };
