import "server-only";
import { sql } from "drizzle-orm";
import { unstable_cache } from "next/cache";
import { SuperJSON, type SuperJSONResult } from "superjson";
import { withMoney } from "@/lib/money-json";
import type { Database, Db } from "@/server/db/client";
import { logger } from "@/server/logger";
import { isDatabaseUnavailable } from "@/server/db/unavailable";
import { databaseReachable, databaseUnreachable, INSTANCE_ONLY_TAG, invalidateTags } from "./next-cache-handler.mjs";

/**
 * What every visitor sees alike (catalogue pages, listings, menus) is served from Next's cache, tagged by what it
 * shows, and the code that changes the data says so here in the same transaction (ARCHITECTURE §3 "Caching follows
 * the data"). The handler behind the cache is src/server/cache/next-cache-handler.mjs.
 */
export const catalogueTags = {
  /** Everything below: a discount or a category name can change every page. */
  all: "catalogue",
  /** Lists of products and their counts: home shelves, search and category pages, related pieces, facets. */
  listings: "listings",
  /** The banner and the menus. */
  menus: "menus",
  product: (id: number) => `product:${id}`,
  /**
   * Kept in this instance's memory only, never shared through Redis: a read whose arguments a visitor types (search
   * words, prices) makes a new entry for each, and anyone could fill Redis with them (SECURITY-REVIEW N-M2).
   */
  thisInstanceOnly: INSTANCE_ONLY_TAG,
};

export type CatalogueChange = { productIds: readonly number[] } | { menus: true } | { everything: true };

/** PostgreSQL delivers a NOTIFY only when its transaction commits, to every instance listening. */
const CHANNEL = "catalogue_changed";
/** Past this many products in one change, every page is refreshed instead (NOTIFY's payload is limited to 8 kB). */
const MOST_PRODUCTS_NAMED = 200;

function tagsOf(change: CatalogueChange): string[] {
  if ("everything" in change || ("productIds" in change && change.productIds.length > MOST_PRODUCTS_NAMED)) return [catalogueTags.all];
  if ("menus" in change) return [catalogueTags.menus];
  return [catalogueTags.listings, ...new Set(change.productIds.map(catalogueTags.product))];
}

/**
 * Says, inside the transaction that changes them, which things visitors see have changed. Every instance stops
 * serving the cached pages that show them once the transaction commits; this instance at once as well, so the page
 * asked for right after a sale is rendered anew here even before the notification comes back.
 */
export async function catalogueChanged(tx: Db, change: CatalogueChange): Promise<void> {
  const tags = tagsOf(change);
  invalidateTags(tags);
  await tx.execute(sql`select pg_notify(${CHANNEL}, ${tags.join(",")})`);
}

/**
 * Listens for catalogue changes committed by any instance. When the connection drops, notifications may have been
 * missed, so the whole catalogue counts as changed. Returns a function that stops listening.
 */
export async function listenForCatalogueChanges(database: Database): Promise<() => Promise<void>> {
  return database.listen(CHANNEL, {
    onMessage: (payload) => invalidateTags(payload.split(",").filter(Boolean)),
    onReconnect: () => {
      logger.warn({ event: "CACHE" }, "catalogue change notifications were interrupted; every cached page is refreshed");
      invalidateTags([catalogueTags.all]);
      databaseReachable();
    },
  });
}

/**
 * A catalogue read served from Next's cache when running inside the shop's server; anywhere else (tests, scripts)
 * it reads the given database. The cache is keyed by the arguments after the database. Results travel through the
 * cache in the API's format, so money stays Decimal, with an instance of its own (see src/lib/trpc/transformer.ts).
 * Scheduled discounts start and end without a change to announce them: entries are read again in the background
 * once they are a minute old (REFRESH_AFTER_MS in the handler).
 */
export function cachedForVisitors<Args extends unknown[], Result>(
  name: string,
  read: (db: Db, ...args: Args) => Promise<Result>,
  tags: (...args: NoInfer<Args>) => string[],
): (db: Db, ...args: Args) => Promise<Result> {
  return async (db, ...args) => {
    if (process.env.NEXT_RUNTIME !== "nodejs") return read(db, ...args);
    const cached = unstable_cache(async (...inner: Args) => cacheFormat.serialize(await reportingReachability(() => read(db, ...inner))), [name], {
      tags: [catalogueTags.all, ...tags(...args)],
      revalidate: 60,
    });
    const stored = await cached(...args);
    const result = cacheFormat.deserialize<Result>(stored);
    if (result !== null && typeof result === "object") storedForms.set(result, stored);
    return result;
  };
}

/**
 * Tells the cache whether the database answered: while it does not, cached pages are served as last rendered and a
 * page that cannot be rendered is answered with 503 (RELIABILITY-REVIEW D6).
 */
async function reportingReachability<Result>(read: () => Promise<Result>): Promise<Result> {
  try {
    const result = await read();
    databaseReachable();
    return result;
  } catch (error) {
    if (isDatabaseUnavailable(error)) databaseUnreachable();
    throw error;
  }
}

const cacheFormat = withMoney(new SuperJSON());

/**
 * Cached reads by the form they were stored in, which is the API's own format: the API answers a cached read with
 * it (`storedFormOf`) instead of walking two dozen products again for every request. In the global registry, as Next
 * may bundle the API and this module in separate layers; a WeakMap, so it holds nothing a request no longer does.
 */
const storedForms: WeakMap<object, SuperJSONResult> = ((globalThis as { [key: symbol]: unknown })[Symbol.for("balance-and-crown.stored-forms")] ??=
  new WeakMap()) as WeakMap<object, SuperJSONResult>;

/** The form a cached read was stored in, the API's own format, when the value is one returned unchanged. */
export function storedFormOf(value: unknown): SuperJSONResult | undefined {
  return value !== null && typeof value === "object" ? storedForms.get(value) : undefined;
}
