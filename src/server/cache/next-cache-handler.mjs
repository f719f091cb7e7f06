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
// - What anyone can make up is not shared (SECURITY-REVIEW N-M2): only a page that answered 200 is kept (a 404 or a
//   redirect is rendered again), entries tagged INSTANCE_ONLY_TAG (typed searches) stay in this process's memory,
//   and Redis holds at most REDIS_CACHE_MAX_ENTRIES entries per build and database, the oldest going first. The tag
//   times have no expiry, so a Redis run with `maxmemory-policy volatile-lru` evicts entries but never them.
// - Redis may come back from a snapshot, or after a partition, without the changes made meanwhile (RELIABILITY-REVIEW
//   D4): on every (re)connect this instance writes the tag times it knows (keeping the later of two), and entries are
//   kept under Redis's run id, so what an earlier run of Redis held is never served.
// - While a catalogue read cannot reach the database (RELIABILITY-REVIEW D6), a page whose data changed is served as
//   last rendered rather than failing: a render is tried again at most every RETRY_UNREACHABLE_MS, and nothing is
//   stored until the database answers again, since a render then may only have had the old data to show.
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
/** How many entries one build on one database may keep in Redis, unless REDIS_CACHE_MAX_ENTRIES says otherwise. */
const REDIS_MAX_ENTRIES = 10_000;
/** While the database cannot be reached, how often a page whose data changed is rendered again (and fails, mostly). */
const RETRY_UNREACHABLE_MS = 5_000;
/**
 * The tag of entries kept in this process only: what a visitor types (words, prices) makes a new entry each time, and
 * sharing those would let anyone fill Redis. Reads give it to their data entry, and Next copies it onto the page.
 */
export const INSTANCE_ONLY_TAG = "this-instance";

/**
 * @typedef {{ value: any; tags: string[]; readAt: number; cacheControl?: { revalidate: number | false; expire?: number }; size: number }} Entry
 * @typedef {{ invalidatedAt: Map<string, number>; memory: Map<string, Entry>; memoryBytes: number; renderingSince: Map<string, number>; redis?: Promise<import("ioredis").Redis | null>; tagsFromRedis: boolean; redisRun: string | null; databaseUnreachableSince: number | null; triedWhileUnreachable: Map<string, number> }} CacheState
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
  redisRun: null,
  databaseUnreachableSince: null,
  triedWhileUnreachable: new Map(),
});
// A state made by an earlier version of this module (`next dev` reloads it) lacks what was added since.
state.triedWhileUnreachable ??= new Map();
state.redisRun ??= null;
state.databaseUnreachableSince ??= null;

/** The shop's database, as the handler's keys name it: the same build on another database shows other pages. The
 * path is only a name here, never read: the ignore comment keeps the build from tracing the whole project for it. */
const databaseKey = createHash("sha256")
  .update(process.env.DATABASE_URL ?? path.resolve(/*turbopackIgnore: true*/ process.env.DATA_DIR ?? ".data"))
  .digest("hex")
  .slice(0, 16);
const TAGS_KEY = `next-cache-tags:${databaseKey}`;

/** The shop's address at run time, as the handler's keys name it; read when the handler is made, after the front door set PORT. */
function addressKey() {
  return createHash("sha256")
    .update(process.env.AUTH_URL || `port ${process.env.PORT ?? 3000}`)
    .digest("hex")
    .slice(0, 16);
}

/** Marks tags as changed now: every entry carrying one of them and read before now is no longer served. */
export function invalidateTags(tags) {
  const now = Date.now();
  for (const tag of tags) state.invalidatedAt.set(tag, now);
  void state.redis?.then((redis) => {
    if (redis?.status !== "ready" || tags.length === 0) return;
    return writeTagTimes(redis, tags.map((tag) => [tag, now])).catch(() => undefined);
  });
}

/**
 * Records in Redis when tags changed, keeping the later time where Redis has one already. The hash has no expiry:
 * under `volatile-lru` Redis then never evicts it, and it is small (one field per product, plus a few).
 */
const WRITE_LATER_TIMES = `
for i = 1, #ARGV, 2 do
  local known = tonumber(redis.call('HGET', KEYS[1], ARGV[i]))
  if not known or known < tonumber(ARGV[i + 1]) then redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
end
return 0`;
async function writeTagTimes(redis, times) {
  for (let start = 0; start < times.length; start += 500) {
    const chunk = times.slice(start, start + 500).flatMap(([tag, time]) => [tag, String(time)]);
    await redis.eval(WRITE_LATER_TIMES, 1, TAGS_KEY, ...chunk);
  }
}

/** Takes in when each tag last changed, as every instance recorded it; until then Redis entries are not trusted. */
async function readTagTimes(redis) {
  const times = await redis.hgetall(TAGS_KEY);
  for (const [tag, time] of Object.entries(times)) {
    if (Number(time) > (state.invalidatedAt.get(tag) ?? 0)) state.invalidatedAt.set(tag, Number(time));
  }
}

/**
 * On every (re)connect: Redis may have missed changes this instance made while it was away, or come back from a
 * snapshot older than they are, so this instance's tag times are written first; then every instance's are read.
 * Entries are trusted only from this run of Redis (its `run_id`): a restarted Redis's snapshot holds pages whose
 * changes it never heard of, from instances that may no longer run.
 */
async function connected(redis) {
  const run = /run_id:(\w+)/.exec(await redis.info("server"))?.[1];
  if (!run) throw new Error("Redis did not say its run_id");
  await writeTagTimes(redis, [...state.invalidatedAt]);
  await readTagTimes(redis);
  state.redisRun = run;
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
      connected(client).catch((error) => console.warn(`Next cache: could not exchange tag times with Redis (${error.message})`));
    });
    // Changes made while Redis was away were not written there: entries it holds are not trusted until read again.
    client.on("close", () => {
      state.tagsFromRedis = false;
      state.redisRun = null;
    });
    return client;
  });
  return state.redis;
}

/**
 * Told by the catalogue's reads (src/server/cache/catalogue.ts) when one could not reach the database, and when one
 * did again. Meanwhile pages are served as last rendered, and the front door answers a failed page with 503.
 */
export function databaseUnreachable() {
  state.databaseUnreachableSince ??= Date.now();
}

export function databaseReachable() {
  if (state.databaseUnreachableSince === null) return;
  state.databaseUnreachableSince = null;
  state.triedWhileUnreachable.clear();
}

/** Whether a catalogue read found the database unreachable, and none has reached it since. */
export function isDatabaseUnreachable() {
  return state.databaseUnreachableSince !== null;
}

/** Only pages and routes that answered 200 are kept: a 404 or a redirect costs little to render and anyone can ask for another. */
function answeredOk(value) {
  return typeof value.status !== "number" || value.status === 200;
}

/** A time that makes Next count the entry stale, so that it renders the page anew in the background. */
function staleTime(entry, now) {
  const revalidate = entry.cacheControl?.revalidate ?? entry.value?.revalidate;
  return Math.min(entry.readAt, now - (typeof revalidate === "number" ? revalidate : 1) * 1000 - 1);
}

export default class ShopCacheHandler {
  /** @param {{ serverDistDir?: string }} options */
  constructor(options) {
    // Entries of one build are never served by another: a deploy changes the pages' code. Nor are those of another
    // address: pages show the shop's address (shopUrl() in src/server/config/shop-url.ts, AUTH_URL or else the
    // port the front door listens on), and the same build and database may be started on another.
    this.prefix = `next-cache:${buildId(options?.serverDistDir)}:${databaseKey}:${addressKey()}:`;
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
    const unreachable = isDatabaseUnreachable();
    const changed = !!entry && invalidatedSince(entry.tags, entry.readAt);
    // A page whose data changed is served while the database is away: better the last copy than an error. So it is
    // kept (until a new render replaces it, or the memory limit drops it), since the request that finds the database
    // gone comes before anyone knows. Changed data entries are never served, so that no render can build a page from
    // them and pass it off as new.
    if (changed && (!unreachable || entry.value?.kind === "FETCH")) entry = undefined;
    const now = Date.now();
    let dueForRender = !entry || changed || now - entry.readAt >= REFRESH_AFTER_MS;
    if (dueForRender && entry && unreachable) {
      dueForRender = now - (state.triedWhileUnreachable.get(key) ?? 0) >= RETRY_UNREACHABLE_MS;
      if (dueForRender) state.triedWhileUnreachable.set(key, now);
    }
    if (dueForRender && !state.renderingSince.has(key)) state.renderingSince.set(key, now);
    if (!entry) return null;
    // Next renders anew in the background once `lastModified` is older than the entry's revalidate time.
    const lastModified = dueForRender ? staleTime(entry, now) : now;
    return { lastModified, value: entry.value, ...(entry.cacheControl ? { cacheControl: entry.cacheControl } : {}) };
  }

  async set(key, value, context) {
    const readAt = state.renderingSince.get(key) ?? Date.now();
    state.renderingSince.delete(key);
    if (!value) {
      forget(key);
      return;
    }
    if (!answeredOk(value)) return;
    // Next stores the previous copy again when a render fails; and a render while the database is away had only
    // cached data: neither is newer than what is kept.
    if (isDatabaseUnreachable()) return;
    const tags = entryTags(value, context?.tags ?? value.tags);
    if (invalidatedSince(tags, readAt)) return;
    const entry = { value, tags, readAt, cacheControl: context?.cacheControl, size: sizeOf(value) };
    remember(key, entry);
    if (tags.includes(INSTANCE_ONLY_TAG)) return;
    const redis = await redisClient();
    if (redis?.status !== "ready" || !state.redisRun) return;
    await this.toRedis(redis, state.redisRun, key, encode(entry)).catch(() => undefined);
  }

  /** `revalidateTag` from a request; the shop's own changes go through src/server/cache/catalogue.ts. */
  async revalidateTag(tags) {
    invalidateTags(Array.isArray(tags) ? tags : [tags]);
  }

  resetRequestCache() {}

  async fromRedis(key) {
    const redis = await redisClient();
    if (redis?.status !== "ready" || !state.tagsFromRedis || !state.redisRun) return undefined;
    const text = await redis.get(this.keyOf(state.redisRun, key)).catch(() => null);
    return text ? decode(text) : undefined;
  }

  keyOf(run, key) {
    return `${this.prefix}${run}:${key}`;
  }

  /**
   * Stores an entry and keeps the count of this build's entries on this database within REDIS_CACHE_MAX_ENTRIES, the
   * oldest stored going first. The index is a sorted set by time stored; an entry Redis evicted or expired stays in
   * it until its turn comes, so the count is an upper bound.
   */
  async toRedis(redis, run, key, text) {
    const index = `next-cache-index:${this.prefix.slice("next-cache:".length)}${run}`;
    const entryKey = this.keyOf(run, key);
    const results = await redis.multi().set(entryKey, text, "EX", REDIS_TTL_SECONDS).zadd(index, Date.now(), entryKey).expire(index, REDIS_TTL_SECONDS).zcard(index).exec();
    const count = Number(results?.[3]?.[1] ?? 0);
    const max = Number(process.env.REDIS_CACHE_MAX_ENTRIES) || REDIS_MAX_ENTRIES;
    if (count <= max) return;
    const oldest = (await redis.zpopmin(index, count - max)).filter((_, position) => position % 2 === 0);
    if (oldest.length > 0) await redis.unlink(...oldest);
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
