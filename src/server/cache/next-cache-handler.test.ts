import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import ShopCacheHandler, { databaseReachable, databaseUnreachable, invalidateTags } from "./next-cache-handler.mjs";

const page = (html: string, tags: string[], status = 200) => ({
  kind: "APP_PAGE",
  html,
  rscData: Buffer.from(`rsc of ${html}`),
  segmentData: new Map([["/_tree", Buffer.from("tree")]]),
  headers: { "x-next-cache-tags": tags.join(",") },
  status,
});
const unique = (name: string) => `${name}-${randomUUID()}`;

describe("the shop's cache handler", () => {
  const handler = new ShopCacheHandler({});

  it("serves what was stored until one of its tags changes, then answers missing so the next request renders", async () => {
    const key = unique("/product/1");
    const tag = unique("product");
    expect(await handler.get(key)).toBeNull();
    await handler.set(key, page("one in stock", [tag, "listings"]), { cacheControl: { revalidate: 1, expire: 86_401 } });
    const hit = await handler.get(key);
    expect(hit?.value).toMatchObject({ html: "one in stock" });
    expect(hit?.cacheControl).toEqual({ revalidate: 1, expire: 86_401 });

    invalidateTags([unique("another product")]);
    expect(await handler.get(key)).not.toBeNull();
    invalidateTags([tag]);
    expect(await handler.get(key)).toBeNull();
  });

  it("does not keep a render that began before its data changed: it may show the stock from before the sale", async () => {
    const key = unique("/search/omega");
    const tag = unique("product");
    expect(await handler.get(key)).toBeNull();
    // The render reads the stock now; the sale commits while it renders.
    await new Promise((resolve) => setTimeout(resolve, 5));
    invalidateTags([tag]);
    await handler.set(key, page("one in stock", [tag]));

    // The next request's render began after the sale, so it is kept.
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await handler.get(key)).toBeNull();
    await handler.set(key, page("sold out", [tag]));
    expect((await handler.get(key))?.value).toMatchObject({ html: "sold out" });
  });

  it("counts an entry as fresh for a minute whatever its revalidate time, and then lets Next render it anew in the background", async () => {
    const key = unique("/");
    await handler.get(key);
    await handler.set(key, page("home", ["listings"]), { cacheControl: { revalidate: 1, expire: 86_401 } });
    const fresh = await handler.get(key);
    expect(Date.now() - fresh!.lastModified).toBeLessThan(1_000);

    const state = (globalThis as unknown as Record<symbol, { memory: Map<string, { readAt: number }> }>)[Symbol.for("balance-and-crown.next-cache")]!;
    const minuteAgo = Date.now() - 61_000;
    state.memory.get(key)!.readAt = minuteAgo;
    const due = await handler.get(key);
    expect(due?.lastModified).toBe(minuteAgo);
    expect(due?.value).toMatchObject({ html: "home" });
  });

  it("keeps no page that did not answer 200: anyone can ask for another unknown address (SECURITY-REVIEW N-M2)", async () => {
    for (const status of [404, 307, 308, 500]) {
      const key = unique(`/home/x${status}`);
      await handler.get(key);
      await handler.set(key, page("not here", ["catalogue"], status), { cacheControl: { revalidate: 1, expire: 86_401 } });
      expect(await handler.get(key), `a page that answered ${status}`).toBeNull();
    }
  });

  it("while the database is unreachable, serves a page whose data changed as last rendered, renders it at most every 5 s, and keeps nothing rendered meanwhile (RELIABILITY-REVIEW D6)", async () => {
    const key = unique("/product/3");
    const data = unique("product-detail");
    const tag = unique("product");
    await handler.get(key);
    await handler.set(key, page("€4,321.37", [tag]), { cacheControl: { revalidate: 1, expire: 86_401 } });
    await handler.get(data);
    await handler.set(data, { kind: "FETCH", data: { headers: {}, body: "{}", url: "" }, revalidate: 60 }, { tags: [tag] });
    invalidateTags([tag]);
    databaseUnreachable();
    await new Promise((resolve) => setTimeout(resolve, 5));
    try {
      const first = await handler.get(key);
      expect((first?.value as { html: string }).html).toBe("€4,321.37");
      // Stale to Next, which renders it anew in the background...
      expect(Date.now() - first!.lastModified).toBeGreaterThan(1_000);
      // ...once: the next requests within 5 s get it as it is.
      const second = await handler.get(key);
      expect((second?.value as { html: string }).html).toBe("€4,321.37");
      expect(Date.now() - second!.lastModified).toBeLessThan(1_000);
      // The changed data is not served: a render could only make the old page again, under a new date.
      expect(await handler.get(data)).toBeNull();
      // Next stores the previous copy again when the render fails; a render now is not newer than what is kept.
      await handler.set(key, page("rendered while the database was away", [tag]), { cacheControl: { revalidate: 3, expire: 86_401 } });
      expect(((await handler.get(key))?.value as { html: string }).html).toBe("€4,321.37");
    } finally {
      databaseReachable();
    }
    // Back: the changed page is rendered anew before it is served, as always.
    expect(await handler.get(key)).toBeNull();
    await handler.set(key, page("€4,999.37", [tag]), { cacheControl: { revalidate: 1, expire: 86_401 } });
    expect(((await handler.get(key))?.value as { html: string }).html).toBe("€4,999.37");
  });

  it("keeps data entries with the tags they were stored with", async () => {
    const key = unique("listing");
    const tag = unique("listings");
    await handler.get(key);
    await handler.set(key, { kind: "FETCH", data: { headers: {}, body: "{}", url: "" }, revalidate: 10 }, { tags: [tag] });
    expect(await handler.get(key)).not.toBeNull();
    await handler.revalidateTag(tag);
    expect(await handler.get(key)).toBeNull();
  });
});

describe("the shop's cache handler with Redis", () => {
  const redisUrl = process.env.REDIS_TEST_URL ?? "redis://127.0.0.1:6379";
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0 });
  type State = { memory: Map<string, unknown>; invalidatedAt: Map<string, number>; tagsFromRedis: boolean; redisRun: string | null; redis?: Promise<{ status: string; quit: () => Promise<unknown>; removeAllListeners: (event: string) => unknown } | null> };
  const state = () => (globalThis as unknown as Record<symbol, State>)[Symbol.for("balance-and-crown.next-cache")]!;
  let previousUrl: string | undefined;

  /** As a new process on the same Redis: nothing in memory, and a client of its own once asked. */
  async function restart() {
    const client = await state().redis;
    // The old process is gone: its client's last events must not reach the new one's state.
    client?.removeAllListeners("close");
    client?.removeAllListeners("ready");
    await client?.quit().catch(() => undefined);
    state().redis = undefined;
    state().memory.clear();
    state().invalidatedAt.clear();
    state().tagsFromRedis = false;
    state().redisRun = null;
  }
  async function ready(handler: ShopCacheHandler, key: string) {
    await handler.get(key);
    await expect.poll(() => state().tagsFromRedis, { timeout: 5_000 }).toBe(true);
  }

  beforeAll(async () => {
    previousUrl = process.env.REDIS_URL;
    process.env.REDIS_URL = redisUrl;
  });
  afterAll(async () => {
    await restart();
    process.env.REDIS_URL = previousUrl;
    await redis.quit().catch(() => undefined);
  });

  it("another instance serves what one rendered, with its payload intact, and never what was invalidated before it started", async (context) => {
    try {
      await redis.connect();
    } catch {
      // CI and the development machine run Redis on 6379; without it there is nothing to share through.
      context.skip(`Redis at ${redisUrl} is not running`);
    }
    await restart();
    const key = unique("/product/2");
    const tag = unique("product");
    const writer = new ShopCacheHandler({});
    await ready(writer, key);
    await writer.set(key, page("rendered by the first instance", [tag]), { cacheControl: { revalidate: 1, expire: 86_401 } });
    // Under the build's id (`development` without a build in .next), the database's and Redis's run id.
    const [stored] = await redis.keys(`next-cache:*:${key}`);
    expect(await redis.ttl(stored!)).toBeGreaterThan(86_000);

    await restart();
    const second = new ShopCacheHandler({});
    await ready(second, key);
    const value = (await second.get(key))?.value as ReturnType<typeof page>;
    expect(value.html).toBe("rendered by the first instance");
    expect(Buffer.isBuffer(value.rscData) && value.rscData.toString()).toBe("rsc of rendered by the first instance");
    expect(value.segmentData.get("/_tree")?.toString()).toBe("tree");

    // The piece sells; an instance started afterwards learns it from Redis, not from a notification it never heard.
    invalidateTags([tag]);
    await expect.poll(async () => Number(await redis.hget(`next-cache-tags:${stored!.split(":")[2]}`, tag)), { timeout: 2_000 }).toBeGreaterThan(0);
    await restart();
    const third = new ShopCacheHandler({});
    await ready(third, key);
    expect(await third.get(key)).toBeNull();
  });

  it("an instance started on another address does not serve pages rendered with the first one's (issue 27)", async (context) => {
    try {
      if (redis.status === "wait") await redis.connect();
      await redis.ping();
    } catch {
      context.skip(`Redis at ${redisUrl} is not running`);
    }
    const previousPort = process.env.PORT;
    try {
      await restart();
      const key = unique("/home/shelves");
      process.env.PORT = "3999";
      const first = new ShopCacheHandler({});
      await ready(first, key);
      await first.set(key, page("links on localhost:3999", [unique("listings")]), { cacheControl: { revalidate: 1, expire: 86_401 } });

      await restart();
      process.env.PORT = "3000";
      const second = new ShopCacheHandler({});
      await ready(second, key);
      expect(await second.get(key)).toBeNull();
    } finally {
      process.env.PORT = previousPort;
    }
  });
});
