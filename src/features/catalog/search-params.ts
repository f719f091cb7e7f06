import { defaultSortOf } from "@/features/catalog/catalogue-addresses.mjs";
import { calibers, genders, itemTypes, productStates } from "@/lib/enums";
import type { GetManyProductsInput, ProductOrderBy } from "@/server/catalog/schemas";

/**
 * The /search page keeps its whole state in the address, so a reload, a shared link or the back button shows the
 * same results: `search`, `sort` (relevance:desc, price:asc, price:desc, createdAt:desc), `page`, and the filters
 * `category`, `manufacturer`, `caliber`, `state`, `gender`, `itemType` (comma-separated), `priceMin`, `priceMax`
 * `inStock=1` and `onSale=1`. Unknown or malformed values are dropped rather than refused: an old bookmark still opens.
 */

export const sortOptions = [
  { value: "relevance:desc", label: "Relevance" },
  { value: "price:asc", label: "Price: low to high" },
  { value: "price:desc", label: "Price: high to low" },
  { value: "createdAt:desc", label: "Newest first" },
] as const;
export type SortValue = (typeof sortOptions)[number]["value"];

export type SearchState = {
  search: string;
  sort: SortValue;
  page: number;
  category: number[];
  manufacturer: number[];
  caliber: string[];
  state: string[];
  gender: string[];
  itemType: string[];
  priceMin: string;
  priceMax: string;
  inStock: boolean;
  onSale: boolean;
};

const list = (values: string[]) => values.join(",").split(",").map((part) => part.trim()).filter(Boolean);
const ids = (values: string[]) => [...new Set(list(values).map(Number).filter((id) => Number.isInteger(id) && id > 0 && id < 2 ** 31))].slice(0, 50);
const oneOf = (allowed: readonly string[]) => (values: string[]) => [...new Set(list(values).filter((item) => allowed.includes(item) && item !== "UNKNOWN"))];
const amount = (value: string) => {
  const text = value.trim();
  return /^\d{1,10}(\.\d{1,2})?$/.test(text) ? text : "";
};

/** The search state an address's parameters stand for; a list may be repeated (`category=3&category=5`) or comma-separated. */
export function parseSearchState(params: URLSearchParams): SearchState {
  const first = (name: string) => params.get(name) ?? "";
  const search = first("search").trim().slice(0, 200);
  const sortParam = first("sort");
  const defaultSort = defaultSortOf(search) as SortValue;
  // Relevance without words is the newest first: one state, so one address, for one listing.
  const known = sortOptions.some((option) => option.value === sortParam) && (search !== "" || sortParam !== "relevance:desc");
  const sort = known ? (sortParam as SortValue) : defaultSort;
  const page = Number(first("page"));
  return {
    search,
    sort,
    page: Number.isInteger(page) && page >= 1 && page <= 10_000 ? page : 1,
    category: ids(params.getAll("category")),
    manufacturer: ids(params.getAll("manufacturer")),
    caliber: oneOf(calibers)(params.getAll("caliber")),
    state: oneOf(productStates)(params.getAll("state")),
    gender: oneOf(genders)(params.getAll("gender")),
    itemType: oneOf(itemTypes)(params.getAll("itemType")),
    priceMin: amount(first("priceMin")),
    priceMax: amount(first("priceMax")),
    inStock: first("inStock") === "1",
    onSale: first("onSale") === "1",
  };
}

/** The address of a search state; defaults are left out so that addresses stay short. */
export function searchHref(state: SearchState): string {
  const params = new URLSearchParams();
  if (state.search) params.set("search", state.search);
  if (state.sort !== defaultSortOf(state.search)) params.set("sort", state.sort);
  for (const key of ["category", "manufacturer", "caliber", "state", "gender", "itemType"] as const) {
    if (state[key].length) params.set(key, state[key].join(","));
  }
  if (state.priceMin) params.set("priceMin", state.priceMin);
  if (state.priceMax) params.set("priceMax", state.priceMax);
  if (state.inStock) params.set("inStock", "1");
  if (state.onSale) params.set("onSale", "1");
  if (state.page > 1) params.set("page", String(state.page));
  const query = params.toString().replaceAll("%2C", ",").replaceAll("%3A", ":");
  return query ? `/search?${query}` : "/search";
}

function orderByOf(sort: SortValue): ProductOrderBy {
  const [field, direction] = sort.split(":") as [string, "asc" | "desc"];
  if (field === "price") return { price: direction };
  if (field === "createdAt") return { createdAt: direction };
  return { relevance: "desc" };
}

/** The listing call for a search state (validated again by the procedure's schema). */
export function toProductQuery(state: SearchState): GetManyProductsInput {
  return {
    search: state.search || undefined,
    orderBy: state.sort === "relevance:desc" && !state.search ? { createdAt: "desc" } : orderByOf(state.sort),
    page: state.page,
    categoryId: state.category.length ? state.category : undefined,
    manufacturerId: state.manufacturer.length ? state.manufacturer : undefined,
    caliber: state.caliber.length ? (state.caliber as GetManyProductsInput["caliber"]) : undefined,
    state: state.state.length ? (state.state as GetManyProductsInput["state"]) : undefined,
    gender: state.gender.length ? (state.gender as GetManyProductsInput["gender"]) : undefined,
    itemType: state.itemType.length ? (state.itemType as GetManyProductsInput["itemType"]) : undefined,
    priceMin: state.priceMin || undefined,
    priceMax: state.priceMax || undefined,
    inStock: state.inStock || undefined,
    onSale: state.onSale || undefined,
    facets: true,
  };
}

/** The drawer's and the navbar's way into /search (SPEC section 2). */
export function searchResultsHref(term: string): string {
  return `/search?${new URLSearchParams({ search: term, sort: "relevance:desc" }).toString()}`;
}

type MenuTree = { id: number; children?: MenuTree[] };

/** Every id of a menu tree, at any depth. */
function idsOfMenu(items: readonly MenuTree[], ids = new Set<number>()): Set<number> {
  for (const item of items) {
    ids.add(item.id);
    idsOfMenu(item.children ?? [], ids);
  }
  return ids;
}

/**
 * The search state without the categories and makers the shop does not have (the menus list them all): an address
 * naming one that does not exist is the same search as one without it.
 */
export function withKnownFilters(state: SearchState, menus: { categories: readonly MenuTree[]; manufacturers: readonly MenuTree[] }): SearchState {
  const categories = idsOfMenu(menus.categories);
  const manufacturers = idsOfMenu(menus.manufacturers);
  return { ...state, category: state.category.filter((id) => categories.has(id)), manufacturer: state.manufacturer.filter((id) => manufacturers.has(id)) };
}
/** The search parameters of the address `searchHref` gives a state: what a canonical search's key is made of. */
export function searchParamsOf(state: SearchState): URLSearchParams {
  return new URLSearchParams(searchHref(state).split("?")[1] ?? "");
}
