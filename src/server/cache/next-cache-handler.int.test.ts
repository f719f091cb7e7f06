import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ownRedisUnavailable, startOwnRedis, type OwnRedis } from "../../../tests/helpers/own-redis";
import ShopCacheHandler, { INSTANCE_ONLY_TAG, invalidateTags } from "./next-cache-handler.mjs";

/**
 * The cache handler against a Redis of the test's own, set up as the README asks (`maxmemory`, `volatile-lru`), filled,
 * stopped and restarted from its snapshot: SECURITY-REVIEW N-M2 (a bound on what anonymous visitors can store) and
 * RELIABILITY-REVIEW D4 (an instance started after Redis came back never serves a page that went stale meanwhile).
 */

const page = (html: string, tags: string[], status = 200) => ({
  kind: "APP_PAGE",
  html,
  rscData: Buffer.from(`rsc of ${html}`),
  segmentData: new Map([["/_tree", Buffer.from("tree")]]),
  headers: { "x-next-cache-tags": tags.join(",") },
  status,
});
const unique = (name: string) => `${name}-${randomUUID()}`;
const control = { cacheControl: { revalidate: 1, expire: 86_401 } };

type State = {
  memory: Map<string, unknown>;
  invalidatedAt: Map<string, number>;
  tagsFromRedis: boolean;
  redisRun: string | null;
  redis?: Promise<Redis | null>;
};
const state = () => (globalThis as unknown as Record<symbol, State>)[Symbol.for("balance-and-crown.next-cache")]!;

/** As a new process on the same Redis: nothing in memory, and a client of its own once asked. */
async function newInstance(): Promise<ShopCacheHandler> {
  const client = await state().redis;
  // The old process is gone: its client's last events must not reach the new one's state.
  client?.removeAllListeners("close");
  client?.removeAllListeners("ready");
  client?.disconnect(false);
  state().redis = undefined;
  state().memory.clear();
  state().invalidatedAt.clear();
  state().tagsFromRedis = false;
  state().redisRun = null;
  const handler = new ShopCacheHandler({});
  await connected(handler);
  return handler;
}
async function connected(handler: ShopCacheHandler) {
  await handler.get(unique("/nothing"));
  await expect.poll(() => state().tagsFromRedis, { timeout: 10_000 }).toBe(true);
}
const html = async (handler: ShopCacheHandler, key: string) => ((await handler.get(key))?.value as { html: string } | undefined)?.html ?? null;

const unavailable = ownRedisUnavailable();

describe.skipIf(unavailable)("the shop's cache handler on a Redis of its own", () => {
  let redis: OwnRedis;
  const previous = { url: process.env.REDIS_URL, max: process.env.REDIS_CACHE_MAX_ENTRIES };

  beforeAll(async () => {
    // As the README asks of a production Redis, with little memory so that it fills; saved when stopped.
    redis = await startOwnRedis({ maxmemory: "4mb", "maxmemory-policy": "volatile-lru", save: "3600 1" });
    process.env.REDIS_URL = redis.url;
  });
  beforeEach(async () => {
    process.env.REDIS_CACHE_MAX_ENTRIES = "100";
  });
  afterAll(async () => {
    const client = await state().redis;
    client?.removeAllListeners("close");
    client?.disconnect(false);
    state().redis = undefined;
    process.env.REDIS_URL = previous.url;
    process.env.REDIS_CACHE_MAX_ENTRIES = previous.max;
    await redis?.stop();
  });

  const entryKeys = async () => (await redis.client.keys("next-cache:*")).length;

  it("stores in Redis only pages that answered 200 and are not typed searches, and no more than REDIS_CACHE_MAX_ENTRIES, the oldest going first", async () => {
    await redis.client.flushall();
    const handler = await newInstance();
    const shared = unique("/search/category");
    await handler.get(shared);
    await handler.set(shared, page("a category", ["listings"]), control);
    expect(await entryKeys()).toBe(1);

    // 404s and redirects for made-up addresses, and pages of typed words or prices: none reaches Redis.
    for (let n = 0; n < 20; n++) {
      const missing = `/home/x${n}`;
      await handler.get(missing);
      await handler.set(missing, page("not found", ["catalogue"], 404), control);
      const typed = unique("/search/words");
      await handler.get(typed);
      await handler.set(typed, page("results for words", ["listings", INSTANCE_ONLY_TAG]), control);
      // Kept in this instance's memory: served here all the same.
      expect(await html(handler, typed)).toBe("results for words");
    }
    expect(await entryKeys()).toBe(1);

    const keys = Array.from({ length: 150 }, (_, n) => `/product/${n + 1}`);
    for (const key of keys) {
      await handler.get(key);
      await handler.set(key, page(`product ${key}`, ["listings"]), control);
    }
    expect(await entryKeys()).toBe(100);
    const second = await newInstance();
    expect(await html(second, keys[0]!)).toBeNull();
    expect(await html(second, keys[149]!)).toBe("product /product/150");
  });

  it("keeps every tag time when Redis is full and evicts under volatile-lru, so a later instance serves nothing that went stale", async () => {
    await redis.client.flushall();
    process.env.REDIS_CACHE_MAX_ENTRIES = "10000";
    const handler = await newInstance();
    const key = unique("/product/7");
    const tag = unique("product");
    await handler.get(key);
    await handler.set(key, page("€4,321.37", [tag]), control);
    await new Promise((resolve) => setTimeout(resolve, 5));
    invalidateTags([tag]);
    await expect.poll(async () => (await redis.client.hkeys((await redis.client.keys("next-cache-tags:*"))[0] ?? "none")).includes(tag)).toBe(true);
    const [tagsKey] = await redis.client.keys("next-cache-tags:*");

    // 8 MB of pages into 4 MB: Redis evicts.
    const filler = "x".repeat(40_000);
    for (let n = 0; n < 200; n++) {
      const other = unique("/search/page");
      await handler.get(other);
      await handler.set(other, page(filler, ["listings"]), control);
    }
    const info = await redis.client.info("stats");
    expect(Number(/evicted_keys:(\d+)/.exec(info)?.[1])).toBeGreaterThan(0);

    expect(Number(await redis.client.hget(tagsKey!, tag))).toBeGreaterThan(0);
    // The stale page, were it still anywhere, is not served by an instance started now.
    const later = await newInstance();
    expect(await later.get(key)).toBeNull();
  });

  it("an instance started after Redis came back from its snapshot does not serve a page that went stale while Redis was down (RELIABILITY-REVIEW D4)", async () => {
    await redis.client.flushall();
    const first = await newInstance();
    const key = unique("/product/9");
    const tag = unique("product");
    await first.get(key);
    await first.set(key, page("€4,321.37", [tag]), control);

    // Redis stops (saving its snapshot); the price changes meanwhile; Redis comes back with the old page and tag times.
    await redis.down();
    await new Promise((resolve) => setTimeout(resolve, 5));
    invalidateTags([tag]);
    await redis.start();
    // The first instance reconnects by itself.
    await expect.poll(() => state().tagsFromRedis, { timeout: 15_000 }).toBe(true);

    const later = await newInstance();
    expect(await later.get(key)).toBeNull();
  });

  it("an instance cut off from Redis writes the changes it made meanwhile when it is back, so an instance started later does not serve the old page (RELIABILITY-REVIEW D4)", async () => {
    await redis.client.flushall();
    const first = await newInstance();
    const key = unique("/product/11");
    const tag = unique("product");
    await first.get(key);
    await first.set(key, page("€4,321.37", [tag]), control);

    // The connection drops (a partition, a Redis too busy to answer); Redis itself keeps running with the old page.
    // The price changes the moment the connection is gone.
    const client = (await state().redis)!;
    await new Promise((resolve) => setTimeout(resolve, 5));
    client.once("close", () => invalidateTags([tag]));
    client.disconnect(true);
    await expect.poll(() => state().tagsFromRedis, { timeout: 15_000 }).toBe(true);
    await expect.poll(async () => (await redis.client.keys("next-cache-tags:*")).length).toBe(1);
    const [tagsKey] = await redis.client.keys("next-cache-tags:*");
    await expect.poll(async () => Number(await redis.client.hget(tagsKey!, tag)), { timeout: 5_000 }).toBeGreaterThan(0);

    const later = await newInstance();
    expect(await later.get(key)).toBeNull();
  });
});
