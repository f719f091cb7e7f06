import { eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { rateLimit } from "@/server/db/schema";

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

export async function resetRateLimits(db: Db, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await db.delete(rateLimit).where(keys.length === 1 ? eq(rateLimit.key, keys[0]!) : inArray(rateLimit.key, keys));
}
