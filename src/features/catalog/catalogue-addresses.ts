import { parseSearchState, searchHref, type SearchParamsRecord, type SearchState } from "./search-params";

/**
 * Catalogue pages are kept in Next's cache one per address path, so src/proxy.ts serves the public addresses from
 * paths that say everything the page shows:
 * - `/` from `/home/<HOME_EDITION>` (see the home page for why not from `/` itself);
 * - `/search?…` from `/search/<key>`, the search state's canonical address in one path segment. Equivalent
 *   addresses (defaults spelt out, parameters in another order, unknown ones added) share one key, so they share one
 *   cached page.
 */
export const HOME_EDITION = "shelves";

/** The path a public catalogue address is served from, or null when it is served as it is. */
export function cachedPagePath(pathname: string, searchParams: URLSearchParams): string | null {
  if (pathname === "/") return `/home/${HOME_EDITION}`;
  if (pathname === "/search") return `/search/${searchKey(parseSearchState(recordOf(searchParams)))}`;
  return null;
}

export function searchKey(state: SearchState): string {
  const query = searchHref(state).split("?")[1] ?? "";
  return query ? Buffer.from(query, "utf8").toString("base64url") : "all";
}

/** The state a key stands for; null for a key that is not the canonical key of its own state. */
export function searchStateOfKey(key: string): SearchState | null {
  if (key !== "all" && !/^[A-Za-z0-9_-]{1,2000}$/.test(key)) return null;
  const query = key === "all" ? "" : Buffer.from(key, "base64url").toString("utf8");
  const state = parseSearchState(recordOf(new URLSearchParams(query)));
  return searchKey(state) === key ? state : null;
}

/** Search parameters as a page receives them: a repeated name gives a list. */
export function recordOf(params: URLSearchParams): SearchParamsRecord {
  const record: SearchParamsRecord = {};
  for (const [name, value] of params) {
    const previous = record[name];
    record[name] = previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
  }
  return record;
}
