// Next's cache for the shop (next.config.ts `cacheHandler`): the catalogue pages, listings and menus that every
// visitor sees alike, and the data they are made of (`unstable_cache`). Plain JavaScript, because Next loads it at
// run time outside its bundles.
//
// - Entries live in this process's memory (least recently used go first past `MEMORY_LIMIT_BYTES`) and, when
//   REDIS_URL is set, in Redis as well, so that every instance serves what one of them rendered.
// - An entry is valid until one of its tags is invalidated after its data was read. Invalidations come from the code
//   that changes the data (src/server/cache/catalogue.ts): in this process at once, and in every instance through
//   PostgreSQL's NOTIFY, which is only sent when the change commits. This handler answers "missing" for an invalidated
//   entry, so the next request renders fresh instead of being served the stale page while it re-renders.
// - An entry is only kept if none of its tags was invalidated since its render began: a render that read the stock
//   just before a sale committed must not be stored as if it were newer than the sale.
// - With Redis, when each tag last changed is kept there too, so an instance that starts later never serves an entry
//   that was invalidated before it started. Entries and tags are kept per database, so shops (or test runs) sharing
//   one Redis never see each other's pages.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";

const MEMORY_LIMIT_BYTES = 128 * 1024 * 1024;
/**
 * What no change announces (a scheduled discount starting, a piece no longer new) is read again after this long.
 * Catalogue pages say `revalidate = 1` for the SPEC's `s-maxage=1` towards browsers and CDNs; rendering each busy
 * page anew every second as well would cost the server more than serving it, so entries count as fresh here until
 * they are this old or one of their tags changes.
 */
const REFRESH_AFTER_MS = 60_000;
/** How long Redis keeps an entry nobody asked for: the stale-while-revalidate window of SPEC §7. */
const REDIS_TTL_SECONDS = 24 * 60 * 60;
/** A Redis that does not answer within this is treated as a miss: the page is rendered instead. */
const REDIS_TIMEOUT_MS = 250;
const TAGS_HEADER = "x-next-cache-tags";

/**
 * @typedef {{ value: any; tags: string[]; readAt: number; cacheControl?: { revalidate: number | false; expire?: number }; size: number }} Entry
 * @typedef {{ invalidatedAt: Map<string, number>; memory: Map<string, Entry>; memoryBytes: number; renderingSince: Map<string, number>; redis?: Promise<import("ioredis").Redis | null>; tagsFromRedis: boolean }} CacheState
 */

/**
 * One state per process, shared by every handler Next creates (one per request) and by the shop's own code, which
 * Next bundles separately and so reaches it through the global symbol registry.
 * @type {CacheState}
 */
const state = (globalThis[Symbol.for("balance-and-crown.next-cache")] ??= {
  invalidatedAt: new Map(),
  memory: new Map(),
  memoryBytes: 0,
  renderingSince: new Map(),
  redis: undefined,
  tagsFromRedis: false,
});

/** The shop's database, as the handler's keys name it: the same build on another database shows other pages. */
const databaseKey = createHash("sha256")
  .update(process.env.DATABASE_URL ?? path.resolve(process.env.DATA_DIR ?? ".data"))
  .digest("hex")
  .slice(0, 16);
const TAGS_KEY = `next-cache-tags:${databaseKey}`;

/** Marks tags as changed now: every entry carrying one of them and read before now is no longer served. */
export function invalidateTags(tags) {
  const now = Date.now();
  for (const tag of tags) state.invalidatedAt.set(tag, now);
  void state.redis?.then((redis) => {
    if (redis?.status !== "ready" || tags.length === 0) return;
    // Past the entries' own lifetime the times no longer matter; each change keeps them a day longer.
    return redis
      .multi()
      .hset(TAGS_KEY, Object.fromEntries(tags.map((tag) => [tag, now])))
      .expire(TAGS_KEY, REDIS_TTL_SECONDS + 3600)
      .exec()
      .catch(() => undefined);
  });
}

/** Takes in when each tag last changed, as every instance recorded it; until then Redis entries are not trusted. */
async function readTagTimes(redis) {
  const times = await redis.hgetall(TAGS_KEY);
  for (const [tag, time] of Object.entries(times)) {
    if (Number(time) > (state.invalidatedAt.get(tag) ?? 0)) state.invalidatedAt.set(tag, Number(time));
  }
  state.tagsFromRedis = true;
}

function invalidatedSince(tags, time) {
  return tags.some((tag) => (state.invalidatedAt.get(tag) ?? 0) >= time);
}

function entryTags(value, tags) {
  const fromHeader = value?.headers?.[TAGS_HEADER];
  const all = new Set(tags ?? []);
  if (typeof fromHeader === "string") for (const tag of fromHeader.split(",")) if (tag) all.add(tag);
  return [...all];
}

function sizeOf(value) {
  if (!value) return 0;
  let size = 0;
  if (typeof value.html === "string") size += value.html.length;
  if (value.rscData) size += value.rscData.length ?? 0;
  if (value.segmentData instanceof Map) for (const segment of value.segmentData.values()) size += segment.length ?? 0;
  if (typeof value.body === "string") size += value.body.length;
  if (typeof value.data?.body === "string") size += value.data.body.length;
  return size + 512;
}

function remember(key, entry) {
  forget(key);
  state.memory.set(key, entry);
  state.memoryBytes += entry.size;
  for (const [oldest, old] of state.memory) {
    if (state.memoryBytes <= MEMORY_LIMIT_BYTES) break;
    state.memory.delete(oldest);
    state.memoryBytes -= old.size;
  }
}

function forget(key) {
  const old = state.memory.get(key);
  if (!old) return;
  state.memory.delete(key);
  state.memoryBytes -= old.size;
}

// Buffers (a page's RSC payload) and Maps (its segments) survive the trip through Redis as tagged objects.
function encode(entry) {
  return JSON.stringify(entry, function replace(key, value) {
    const original = this[key];
    if (Buffer.isBuffer(original)) return { $buffer: original.toString("base64") };
    if (original instanceof Map) return { $map: [...original] };
    return value;
  });
}

function decode(text) {
  return JSON.parse(text, (_key, value) => {
    if (value && typeof value === "object" && "$buffer" in value) return Buffer.from(value.$buffer, "base64");
    if (value && typeof value === "object" && "$map" in value) return new Map(value.$map);
    return value;
  });
}

async function redisClient() {
  if (!process.env.REDIS_URL) return null;
  state.redis ??= import("ioredis").then(({ Redis }) => {
    const client = new Redis(process.env.REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: REDIS_TIMEOUT_MS, lazyConnect: false });
    // Without Redis each instance still serves its own cache; the error is reported once per outage.
    let reported = false;
    client.on("error", (error) => {
      if (!reported) console.warn(`Next cache: Redis unavailable (${error.message}); serving from memory`);
      reported = true;
    });
    client.on("ready", () => {
      reported = false;
      readTagTimes(client).catch((error) => console.warn(`Next cache: could not read tag times from Redis (${error.message})`));
    });
    // Changes made while Redis was away were not written there: entries it holds are not trusted until read again.
    client.on("close", () => (state.tagsFromRedis = false));
    return client;
  });
  return state.redis;
}

export default class ShopCacheHandler {
  /** @param {{ serverDistDir?: string }} options */
  constructor(options) {
    // Entries of one build are never served by another: a deploy changes the pages' code.
    this.prefix = `next-cache:${buildId(options?.serverDistDir)}:${databaseKey}:`;
  }

  async get(key) {
    let entry = state.memory.get(key);
    if (!entry) {
      entry = await this.fromRedis(key);
      if (entry) remember(key, entry);
    } else {
      // Most recently used last, so the oldest are dropped first.
      state.memory.delete(key);
      state.memory.set(key, entry);
    }
    if (entry && invalidatedSince(entry.tags, entry.readAt)) {
      forget(key);
      entry = undefined;
    }
    const now = Date.now();
    const dueForRender = !entry || now - entry.readAt >= REFRESH_AFTER_MS;
    if (dueForRender && !state.renderingSince.has(key)) state.renderingSince.set(key, now);
    if (!entry) return null;
    // Next renders anew in the background once `lastModified` is older than the entry's revalidate time.
    const lastModified = dueForRender ? entry.readAt : now;
    return { lastModified, value: entry.value, ...(entry.cacheControl ? { cacheControl: entry.cacheControl } : {}) };
  }

  async set(key, value, context) {
    const readAt = state.renderingSince.get(key) ?? Date.now();
    state.renderingSince.delete(key);
    if (!value) {
      forget(key);
      return;
    }
    const tags = entryTags(value, context?.tags ?? value.tags);
    if (invalidatedSince(tags, readAt)) return;
    const entry = { value, tags, readAt, cacheControl: context?.cacheControl, size: sizeOf(value) };
    remember(key, entry);
    const redis = await redisClient();
    if (redis?.status === "ready") await redis.set(this.prefix + key, encode(entry), "EX", REDIS_TTL_SECONDS).catch(() => undefined);
  }

  /** `revalidateTag` from a request; the shop's own changes go through src/server/cache/catalogue.ts. */
  async revalidateTag(tags) {
    invalidateTags(Array.isArray(tags) ? tags : [tags]);
  }

  resetRequestCache() {}

  async fromRedis(key) {
    const redis = await redisClient();
    if (redis?.status !== "ready" || !state.tagsFromRedis) return undefined;
    const text = await redis.get(this.prefix + key).catch(() => null);
    return text ? decode(text) : undefined;
  }
}

const buildIds = new Map();
function buildId(serverDistDir) {
  const folder = serverDistDir ? path.dirname(serverDistDir) : path.join(process.cwd(), ".next");
  if (!buildIds.has(folder)) {
    let id = "development";
    try {
      id = readFileSync(path.join(folder, "BUILD_ID"), "utf8").trim();
    } catch {
      // `next dev` has no build id; its entries never leave this process anyway.
    }
    buildIds.set(folder, id);
  }
  return buildIds.get(folder);
}
