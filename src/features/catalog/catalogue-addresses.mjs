// Catalogue pages are kept in Next's cache one per path, so their public addresses are served from paths that say
// everything the page shows:
// - `/` from `/home/<HOME_EDITION>` (see the home page for why not from `/` itself);
// - `/search?…` from `/search/<key>`, the address's search parameters in one path segment.
//
// Plain JavaScript, because the shop's front door (scripts/front-door.mjs) maps these addresses before Next.js sees
// the request: going through Next's proxy instead costs a cached page a third of its time. src/proxy.ts maps them
// the same way where there is no front door (`next dev`).

export const HOME_EDITION = "shelves";

/**
 * The parameters a search address is made of (the fields of `SearchState`, features/catalog/search-params.ts), in
 * the order `searchHref` writes them.
 * Anything else (a campaign's `utm_source`, Next's own `_rsc`) does not change the page, so it is not in the key.
 */
export const SEARCH_PARAMETERS = ["search", "sort", "category", "manufacturer", "caliber", "state", "gender", "itemType", "priceMin", "priceMax", "inStock", "onSale", "page"];

/** The order a search is shown in when its address names none: by relevance for words, newest first without. */
export function defaultSortOf(search) {
  return search.trim() ? "relevance:desc" : "createdAt:desc";
}

/**
 * The key of a search address: its search parameters, in the order above and without empty ones or the default
 * order, as base64url; "all" for none. Addresses that differ only in what is left out share one key, so they share
 * one cached page (the search box's `sort=relevance:desc` among them).
 */
export function searchKeyOf(searchParams) {
  const kept = new URLSearchParams();
  const defaultSort = defaultSortOf(searchParams.get("search") ?? "");
  for (const name of SEARCH_PARAMETERS) {
    for (const value of searchParams.getAll(name)) if (value !== "" && !(name === "sort" && value === defaultSort)) kept.append(name, value);
  }
  const query = kept.toString();
  return query ? Buffer.from(query, "utf8").toString("base64url") : "all";
}

/** The search parameters a key stands for; null for a key that `searchKeyOf` would not have made. */
export function searchParametersOfKey(key) {
  if (key === "all") return new URLSearchParams();
  if (!/^[A-Za-z0-9_-]{1,2000}$/.test(key)) return null;
  const searchParams = new URLSearchParams(Buffer.from(key, "base64url").toString("utf8"));
  return searchKeyOf(searchParams) === key ? searchParams : null;
}

/**
 * The path a public catalogue address is served from, or null when it is served as it is. `query` is the address's
 * query string, read only for a search: the front door asks this of every request.
 */
export function cachedPagePath(pathname, query) {
  if (pathname === "/") return `/home/${HOME_EDITION}`;
  if (pathname === "/search") return `/search/${searchKeyOf(new URLSearchParams(query))}`;
  return null;
}
