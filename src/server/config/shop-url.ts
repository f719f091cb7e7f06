import { env } from "@/env";

/**
 * The shop's public address, without a trailing slash, for every link it hands out: sign-in e-mails, payment
 * return pages and webhooks, confirmation e-mails, redirects. Always from configuration, never from a request's
 * `Host` or `X-Forwarded-*` headers, which any caller can write (SECURITY-REVIEW H3, M1).
 *
 * Read at run time, never built in, so that one build serves any address: `AUTH_URL`, or else the port the front door
 * listens on. Pages that show it (structured data, the sitemap, share pictures) are rendered per request, and cached
 * catalogue pages are kept per address (src/server/cache/next-cache-handler.mjs).
 */
export function shopUrl(): string {
  return (env.AUTH_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, "");
}
