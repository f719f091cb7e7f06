import "server-only";
import { eq, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { rateLimit } from "@/server/db/schema";
import { AppError } from "@/server/errors";

export type RateLimitRule = { limit: number; windowMs: number };
export type RateLimitResult = { allowed: boolean; hits: number; retryAfterMs: number };

/**
 * Counts one hit against `key` in a fixed window and says whether it is within the limit. One upsert does the
 * reading and counting, so concurrent requests on several app instances cannot both slip under the limit.
 */
export async function hitRateLimit(db: Db, key: string, rule: RateLimitRule, now: Date): Promise<RateLimitResult> {
  const windowFloor = new Date(now.getTime() - rule.windowMs);
  const stale = sql`${rateLimit.windowStartedAt} <= ${windowFloor.toISOString()}::timestamptz`;
  const [row] = await db
    .insert(rateLimit)
    .values({ key, windowStartedAt: now, hits: 1 })
    .onConflictDoUpdate({
      target: rateLimit.key,
      set: {
        hits: sql`case when ${stale} then 1 else ${rateLimit.hits} + 1 end`,
        windowStartedAt: sql`case when ${stale} then ${now.toISOString()}::timestamptz else ${rateLimit.windowStartedAt} end`,
        updatedAt: now,
      },
    })
    .returning({ hits: rateLimit.hits, windowStartedAt: rateLimit.windowStartedAt });
  if (!row) throw new Error(`Could not count a hit for rate limit ${key}`);
  const allowed = row.hits <= rule.limit;
  return { allowed, hits: row.hits, retryAfterMs: allowed ? 0 : row.windowStartedAt.getTime() + rule.windowMs - now.getTime() };
}

/**
 * Whether `key` is over `rule` now, without counting a hit: for limits that count only what failed (a wrong code),
 * checked before the attempt and counted after it failed. Answers when to try again, or null.
 */
export async function overRateLimit(db: Db, key: string, rule: RateLimitRule, now: Date): Promise<{ retryAfterMs: number } | null> {
  const [row] = await db.select({ hits: rateLimit.hits, windowStartedAt: rateLimit.windowStartedAt }).from(rateLimit).where(eq(rateLimit.key, key));
  if (!row || row.hits < rule.limit) return null;
  const retryAfterMs = row.windowStartedAt.getTime() + rule.windowMs - now.getTime();
  return retryAfterMs > 0 ? { retryAfterMs } : null;
}

/**
 * Deletes the counters whose window ended long ago (every rule's window is an hour at most), so that the table
 * holds only what limits callers now; a key counts afresh anyway once its window is over. Returns how many went.
 */
export async function pruneRateLimits(db: Db, now: Date = new Date()): Promise<number> {
  const deleted = await db
    .delete(rateLimit)
    .where(lt(rateLimit.windowStartedAt, new Date(now.getTime() - 24 * 60 * 60_000)))
    .returning({ key: rateLimit.key });
  return deleted.length;
}

export async function resetRateLimits(db: Db, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await db.delete(rateLimit).where(keys.length === 1 ? eq(rateLimit.key, keys[0]!) : inArray(rateLimit.key, keys));
}

/**
 * What anonymous callers may do that costs the shop something (ARCHITECTURE section 3), counted per client network
 * address and per visitor token, in the database so every instance sees the same count. The numbers leave room
 * for a real customer who retries, and for several people behind one address (an office, a mobile carrier).
 */
export const callerLimits = {
  /**
   * Orders placed: each holds stock and starts a payment at the provider (SECURITY-REVIEW H4). Counted in the order's
   * own transaction, so that an order refused (sold out, say) does not count.
   */
  placeOrder: { client: { limit: 10, windowMs: 15 * 60_000 }, visitor: { limit: 5, windowMs: 15 * 60_000 } },
  /**
   * Tries at placing an order, placed or refused: a refused one costs the shop a priced cart and a moment's lock on
   * its products, and may name a discount code. Generous, so that a buyer who meets sold-out answers is not stopped.
   */
  placeOrderTry: { client: { limit: 60, windowMs: 15 * 60_000 }, visitor: { limit: 30, windowMs: 15 * 60_000 } },
  /** Distinct discount codes tried; the same code again (each change at checkout re-quotes it) is free (M4). */
  couponCode: { client: { limit: 15, windowMs: 15 * 60_000 }, visitor: { limit: 10, windowMs: 15 * 60_000 } },
  /** Passkey sign-ins tried: each keeps a challenge in the database and checks a signature. */
  passkeySignIn: { client: { limit: 30, windowMs: 15 * 60_000 }, visitor: { limit: 30, windowMs: 15 * 60_000 } },
  /** Positions looked up with the paid geocoding service (M12). */
  geocode: { client: { limit: 20, windowMs: 60 * 60_000 }, visitor: { limit: 10, windowMs: 60 * 60_000 } },
} as const satisfies Record<string, { client: RateLimitRule; visitor: RateLimitRule }>;

export type CallerLimit = keyof typeof callerLimits;

/** Who is calling: the client's network address (see clientAddress) and, when it sent a valid one, its visitor token. */
export type Caller = { client: string; visitorId: string | null };

/**
 * Counts one call of `name` against the caller's client address and visitor token, and refuses it
 * (TOO_MANY_REQUESTS, with when to try again) once either is over its limit.
 */
export async function limitCaller(db: Db, name: CallerLimit, caller: Caller, now: Date = new Date()): Promise<void> {
  const rules = callerLimits[name];
  const hits = await Promise.all([
    hitRateLimit(db, `${name}:client:${caller.client}`, rules.client, now),
    caller.visitorId ? hitRateLimit(db, `${name}:visitor:${caller.visitorId}`, rules.visitor, now) : null,
  ]);
  const refused = hits.filter((hit) => hit && !hit.allowed) as RateLimitResult[];
  if (refused.length === 0) return;
  const minutes = Math.max(1, Math.ceil(Math.max(...refused.map((hit) => hit.retryAfterMs)) / 60_000));
  throw new AppError("TOO_MANY_REQUESTS", `Too many attempts from your connection. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`);
}

/**
 * Whether `caller` has looked at this `subject` (a discount code, say) within the limit's window already; the first
 * look is counted against `name` with limitCaller, later ones are free.
 */
export async function limitFirstLook(db: Db, name: CallerLimit, caller: Caller, subject: string, now: Date = new Date()): Promise<void> {
  const window = callerLimits[name].client;
  const seen = await hitRateLimit(db, `${name}:seen:${caller.visitorId ?? caller.client}:${subject}`, { limit: 1, windowMs: window.windowMs }, now);
  if (seen.hits === 1) await limitCaller(db, name, caller, now);
}
