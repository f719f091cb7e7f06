import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import ShopCacheHandler, { invalidateTags } from "./next-cache-handler.mjs";

const page = (html: string, tags: string[]) => ({
  kind: "APP_PAGE",
  html,
  rscData: Buffer.from(`rsc of ${html}`),
  segmentData: new Map([["/_tree", Buffer.from("tree")]]),
  headers: { "x-next-cache-tags": tags.join(",") },
  status: 200,
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
  afterAll(() => redis.quit().catch(() => undefined));

  it("another instance serves what one rendered, with its payload intact", async () => {
    try {
      await redis.connect();
    } catch {
      // CI and the development machine run Redis on 6379; without it there is nothing to share through.
      console.warn(`Redis at ${redisUrl} is not running: skipping the shared cache test`);
      return;
    }
    const previous = process.env.REDIS_URL;
    process.env.REDIS_URL = redisUrl;
    try {
      const key = unique("/product/2");
      const store = globalThis as unknown as Record<symbol, { memory: Map<string, unknown>; memoryBytes: number; redis?: Promise<{ status: string } | null> }>;
      const state = store[Symbol.for("balance-and-crown.next-cache")]!;
      const writer = new ShopCacheHandler({});
      await writer.get(key);
      // The client connects on first use; the handler treats a Redis not yet ready as a miss.
      await expect.poll(async () => (await state.redis)?.status, { timeout: 5_000 }).toBe("ready");
      await writer.set(key, page("rendered by the first instance", ["listings"]), { cacheControl: { revalidate: 1, expire: 86_401 } });
      // The second instance: nothing of it in this process's memory.
      state.memory.delete(key);
      const hit = await new ShopCacheHandler({}).get(key);
      const value = hit?.value as ReturnType<typeof page>;
      expect(value.html).toBe("rendered by the first instance");
      expect(Buffer.isBuffer(value.rscData) && value.rscData.toString()).toBe("rsc of rendered by the first instance");
      expect(value.segmentData.get("/_tree")?.toString()).toBe("tree");
      expect(await redis.ttl(`next-cache:development:${key}`)).toBeGreaterThan(86_000);
    } finally {
      process.env.REDIS_URL = previous;
      const client = (await (globalThis as unknown as Record<symbol, { redis?: Promise<{ quit: () => Promise<unknown> } | null> }>)[Symbol.for("balance-and-crown.next-cache")]!.redis) ?? null;
      await client?.quit().catch(() => undefined);
      (globalThis as unknown as Record<symbol, { redis?: unknown }>)[Symbol.for("balance-and-crown.next-cache")]!.redis = undefined;
    }
  });
});
