import "server-only";
import { signInEmailAddress as signInEmail } from "@/lib/email";
import type { Db } from "@/server/db/client";
import { hitRateLimit, resetRateLimits, type Caller, type RateLimitRule } from "@/server/rate-limit/service";

/** Sign-in e-mails one address may receive: enough for a lost e-mail or two, too few to flood an inbox. */
export const EMAIL_ADDRESS_LIMIT: RateLimitRule = { limit: 5, windowMs: 15 * 60_000 };
/** Sign-in e-mails one client (network address) may ask for, across addresses. */
export const EMAIL_CLIENT_LIMIT: RateLimitRule = { limit: 20, windowMs: 15 * 60_000 };
/** Sign-in e-mails one visitor (browser, by its visitor token) may ask for, across addresses and networks. */
export const EMAIL_VISITOR_LIMIT: RateLimitRule = { limit: 10, windowMs: 15 * 60_000 };

/**
 * The address a sign-in request would send a link to, normalised as Auth.js does (NFKC, trimmed, lower case), or
 * null when it is not one plain address. Auth.js itself accepts more (it drops whatever follows a comma in the
 * domain), which would give one inbox many rate-limit keys; the shop refuses those requests instead.
 */
export function signInEmailAddress(body: Record<string, unknown>): string | null {
  if (typeof body.email !== "string") return null;
  const parsed = signInEmail.safeParse(body.email.normalize("NFKC").trim().toLowerCase());
  return parsed.success ? parsed.data : null;
}

const addressKey = (email: string) => `sign-in-email:address:${email}`;
const clientKey = (client: string) => `sign-in-email:client:${client}`;
const visitorKey = (visitorId: string) => `sign-in-email:visitor:${visitorId}`;

/**
 * Counts a request for a sign-in e-mail against the address, the client and, when the request names one, the
 * visitor. The counters are kept in the database so that the limit holds across app instances. Returns null when
 * the e-mail may go, else when to try again.
 */
export async function checkSignInEmailLimit(db: Db, email: string, caller: Caller, now: Date): Promise<{ retryAfterMs: number } | null> {
  const hits = await Promise.all([
    hitRateLimit(db, addressKey(email), EMAIL_ADDRESS_LIMIT, now),
    hitRateLimit(db, clientKey(caller.client), EMAIL_CLIENT_LIMIT, now),
    ...(caller.visitorId ? [hitRateLimit(db, visitorKey(caller.visitorId), EMAIL_VISITOR_LIMIT, now)] : []),
  ]);
  if (hits.every((hit) => hit.allowed)) return null;
  return { retryAfterMs: Math.max(...hits.map((hit) => hit.retryAfterMs)) };
}

/**
 * A link that was used proves the e-mails to that address reached their owner: the address starts afresh, so a
 * customer who signs in often is never locked out by their own links. The client's count runs on until its window
 * ends: anyone can sign in with a link of their own, and were that to clear the client too, each sign-in would buy
 * another round of mail to other people's addresses (SECURITY-REVIEW N-M1).
 */
export async function clearSignInEmailLimit(db: Db, email: string): Promise<void> {
  await resetRateLimits(db, [addressKey(email)]);
}
