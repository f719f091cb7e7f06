import "server-only";
import { signInEmailAddress as signInEmail } from "@/lib/email";
import type { Db } from "@/server/db/client";
import { hitRateLimit, resetRateLimits, type RateLimitRule } from "@/server/rate-limit/service";

/** Sign-in e-mails one address may receive: enough for a lost e-mail or two, too few to flood an inbox. */
export const EMAIL_ADDRESS_LIMIT: RateLimitRule = { limit: 5, windowMs: 15 * 60_000 };
/** Sign-in e-mails one client (network address) may ask for, across addresses. */
export const EMAIL_CLIENT_LIMIT: RateLimitRule = { limit: 20, windowMs: 15 * 60_000 };

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

/**
 * Counts a request for a sign-in e-mail against the address and the client. Both counters are kept in the database
 * so that the limit holds across app instances. Returns null when the e-mail may go, else when to try again.
 */
export async function checkSignInEmailLimit(db: Db, email: string, client: string, now: Date): Promise<{ retryAfterMs: number } | null> {
  const [byAddress, byClient] = await Promise.all([
    hitRateLimit(db, addressKey(email), EMAIL_ADDRESS_LIMIT, now),
    hitRateLimit(db, clientKey(client), EMAIL_CLIENT_LIMIT, now),
  ]);
  if (byAddress.allowed && byClient.allowed) return null;
  return { retryAfterMs: Math.max(byAddress.retryAfterMs, byClient.retryAfterMs) };
}

/**
 * A link that was used proves the e-mails reached their owner: the address and client start afresh, so a customer
 * who signs in often is never locked out; only unused links pile up against the limit.
 */
export async function clearSignInEmailLimit(db: Db, email: string, client: string): Promise<void> {
  await resetRateLimits(db, [addressKey(email), clientKey(client)]);
}
