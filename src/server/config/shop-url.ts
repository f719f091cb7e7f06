import { env } from "@/env";

/**
 * The shop's public address, without a trailing slash, for every link it hands out: sign-in e-mails, payment
 * return pages and webhooks, confirmation e-mails, redirects. Always from configuration, never from a request's
 * `Host` or `X-Forwarded-*` headers, which any caller can write (SECURITY-REVIEW H3, M1).
 *
 * `AUTH_URL` is read at run time; `NEXT_PUBLIC_SERVER_URL` is baked into the build, so a build served on another
 * address (the end-to-end tests' port) names that address in `AUTH_URL`.
 */
export function shopUrl(): string {
  return (env.AUTH_URL ?? env.NEXT_PUBLIC_SERVER_URL).replace(/\/+$/, "");
}
