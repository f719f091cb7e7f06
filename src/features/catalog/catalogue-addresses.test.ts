import { describe, expect, it } from "vitest";
import { cachedPagePath, SEARCH_PARAMETERS, searchKeyOf, searchParametersOfKey } from "./catalogue-addresses.mjs";
import { parseSearchState, searchHref, searchParamsOf, withKnownFilters } from "./search-params";

const keyOf = (query: string) => searchKeyOf(new URLSearchParams(query));

describe("catalogue addresses", () => {
  it("names every field of the search state, and nothing else, as a search parameter", () => {
    expect([...SEARCH_PARAMETERS].sort()).toEqual(Object.keys(parseSearchState(new URLSearchParams())).sort());
  });

  it("gives addresses that differ only in order, empty values or other parameters one key", () => {
    expect(keyOf("category=3&search=omega")).toBe(keyOf("search=omega&category=3"));
    expect(keyOf("search=omega&priceMin=&utm_source=letter&_rsc=x1")).toBe(keyOf("search=omega"));
    expect(keyOf("")).toBe("all");
    expect(keyOf("category=3&category=5")).not.toBe(keyOf("category=3"));
  });

  it("reads a key back into its parameters, and refuses a key no address makes", () => {
    const state = parseSearchState(new URLSearchParams("search=seiko+6139&category=3&category=5&inStock=1&page=2"));
    const query = searchHref(state).split("?")[1]!;
    // The shop's own links are already in the key's form.
    expect(searchParametersOfKey(keyOf(query))?.toString()).toBe(new URLSearchParams(query).toString());
    expect(searchParametersOfKey("all")?.toString()).toBe("");
    // Valid base64url, but not the form searchKeyOf gives: another path to the same page, so not served.
    expect(searchParametersOfKey(Buffer.from("category=3&search=omega").toString("base64url"))).toBeNull();
    expect(searchParametersOfKey("not a key!")).toBeNull();
  });

  it("leaves the default order out of the key, so the search box's address and the canonical one share a page (SECURITY-REVIEW N-M2)", () => {
    expect(keyOf("search=omega&sort=relevance:desc")).toBe(keyOf("search=omega"));
    expect(keyOf("sort=createdAt:desc")).toBe("all");
    expect(keyOf("search=omega&sort=price:asc")).not.toBe(keyOf("search=omega"));
    // Relevance without words is the newest first: its canonical address is /search.
    expect(searchKeyOf(searchParamsOf(parseSearchState(new URLSearchParams("sort=relevance:desc"))))).toBe("all");
  });

  it("drops the categories and makers the shop does not have, at any depth of its menus", () => {
    const menus = { categories: [{ id: 1, children: [{ id: 4, children: [{ id: 9 }] }] }], manufacturers: [{ id: 2, children: [{ id: 7 }] }] };
    const state = withKnownFilters(parseSearchState(new URLSearchParams("category=9,3&manufacturer=7,8")), menus);
    expect([state.category, state.manufacturer]).toEqual([[9], [7]]);
    expect(searchHref(state)).toBe("/search?category=9&manufacturer=7");
  });

  it("serves / and /search from their cached paths, and nothing else", () => {
    expect(cachedPagePath("/", "")).toBe("/home/shelves");
    expect(cachedPagePath("/search", "?search=omega")).toBe(`/search/${keyOf("search=omega")}`);
    expect(cachedPagePath("/product/5", "")).toBeNull();
  });
});
