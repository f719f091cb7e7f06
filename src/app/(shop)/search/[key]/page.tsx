import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { cache } from "react";
import { Button } from "@/components/ui/button";
import { searchKeyOf, searchParametersOfKey } from "@/features/catalog/catalogue-addresses.mjs";
import { toFacetsView } from "@/features/catalog/facets-view";
import { LayoutToggle } from "@/features/catalog/layout-toggle";
import { formatMatchCount } from "@/features/catalog/match-count";
import { MobileFilters } from "@/features/catalog/mobile-filters";
import { ProductListing } from "@/features/catalog/product-listing";
import { toCardView } from "@/features/catalog/product-view";
import { SearchFilters } from "@/features/catalog/search-filters";
import { parseSearchState, searchHref, searchParamsOf, toProductQuery, withKnownFilters, type SearchState } from "@/features/catalog/search-params";
import { SortSelect } from "@/features/catalog/sort-select";
import { getManyProductsInput, type GetManyProductsQuery, type TreeFacetOption } from "@/server/catalog/schemas";
import { cachedProductListing } from "@/server/catalog/visitor-cache";
import { getDb } from "@/server/db/client";
import { cachedNavbarData } from "@/server/navbar/visitor-cache";

// Served at /search?… by the front door (or src/proxy.ts), one cached page per search address
// (features/catalog/catalogue-addresses.mjs); see the home page for `force-static` and `revalidate`.
export const dynamic = "force-static";
export const revalidate = 1;
export function generateStaticParams(): { key: string }[] {
  return [];
}

type Props = { params: Promise<{ key: string }> };

/**
 * The search a key stands for, rendered and cached only in the form the shop's own links give it (SECURITY-REVIEW
 * N-M2): an address with ignored values, categories or makers the shop does not have, or a page past the last is
 * sent (307) to the search it amounts to, so that no one can make the cache keep the same listing under endless
 * names. A page past the first is checked against the first page's count, read from the cache, before it is read
 * itself. What the listing's schema refuses (a NUL in the words) is no search at all: 404 (N-L3).
 */
const searchOfKey = cache(async (key: string): Promise<{ state: SearchState; query: GetManyProductsQuery } | { redirectTo: string } | null> => {
  const searchParams = searchParametersOfKey(key);
  if (!searchParams) return null;
  const db = getDb();
  let state = withKnownFilters(parseSearchState(searchParams), await cachedNavbarData(db));
  const firstPage = getManyProductsInput.safeParse(toProductQuery({ ...state, page: 1 }));
  if (!firstPage.success) return null;
  if (state.page > 1) {
    const { totalPages, totalItemsExact } = (await cachedProductListing(db, firstPage.data)).pagination;
    if (totalItemsExact && state.page > Math.max(1, totalPages)) state = { ...state, page: Math.max(1, totalPages) };
  }
  if (searchKeyOf(searchParamsOf(state)) !== key) return { redirectTo: searchHref(state) };
  return { state, query: getManyProductsInput.parse(toProductQuery(state)) };
});

/** The search to render; the page alone redirects or answers 404 (from the metadata as well, two Location headers). */
async function searchToRender(params: Props["params"]): Promise<{ state: SearchState; query: GetManyProductsQuery }> {
  const search = await searchOfKey((await params).key);
  if (!search) notFound();
  if ("redirectTo" in search) redirect(search.redirectTo);
  return search;
}

function findName(options: TreeFacetOption[], id: number): string | undefined {
  for (const option of options) {
    if (option.id === id) return option.name;
    const below = findName(option.children, id);
    if (below) return below;
  }
  return undefined;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const search = await searchOfKey((await params).key);
  if (!search || "redirectTo" in search) return { robots: { index: false } };
  const { state } = search;
  // The canonical address keeps what defines the page (words, category, maker) and drops order, page and filters.
  const canonical = searchHref({ ...emptyFilters(state), search: state.search, category: state.category, manufacturer: state.manufacturer });
  return {
    title: state.search ? `Search results for “${state.search}”` : "Watches and watch parts",
    description: state.search
      ? `Watches and watch parts matching “${state.search}”, with prices, stock and full descriptions.`
      : "Browse wristwatches, pocket watches, movements and spare parts by category, maker, caliber and price.",
    alternates: { canonical },
  };
}

function emptyFilters(state: SearchState): SearchState {
  return { ...state, sort: state.search ? "relevance:desc" : "createdAt:desc", page: 1, category: [], manufacturer: [], caliber: [], state: [], gender: [], itemType: [], priceMin: "", priceMax: "", inStock: false, onSale: false };
}

/** Search results and browsing by category or maker, with facet filters; the whole state is in the address. */
export default async function SearchPage({ params }: Props) {
  const { state, query } = await searchToRender(params);
  const result = await cachedProductListing(getDb(), query);
  // Past the counted matches the first page could not say where the last is: an empty page is past it.
  if (result.products.length === 0 && state.page > 1) redirect(searchHref({ ...state, page: 1 }));
  const facets = toFacetsView(result.facets!);
  const { page, totalPages, totalItems, totalItemsExact } = result.pagination;
  const resultCount = `${formatMatchCount(totalItems, totalItemsExact)} ${totalItems === 1 && totalItemsExact ? "product" : "products"}`;
  // Past the counted matches there are more pages than we know of: offer the next one.
  const hasNext = page < totalPages || !totalItemsExact;

  const scope = [...state.category.map((id) => findName(facets.category, id)), ...state.manufacturer.map((id) => findName(facets.manufacturer, id))].filter(Boolean);
  const heading = state.search ? `Results for “${state.search}”` : scope.length ? scope.join(", ") : "All watches and parts";

  return (
    <div className="mx-auto max-w-7xl px-4 py-6 sm:px-6 sm:py-8">
      <form action="/search" role="search" className="mb-6 flex max-w-2xl gap-2">
        <label htmlFor="search-page-input" className="sr-only">
          Search the shop
        </label>
        <input
          id="search-page-input"
          name="search"
          type="search"
          defaultValue={state.search}
          placeholder="Search watches and parts"
          className="h-10 w-full rounded-md border border-input bg-background px-3 text-base focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring md:text-sm"
        />
        <Button type="submit">Search</Button>
      </form>

      <div className="grid gap-8 lg:grid-cols-[16rem_1fr]">
        <aside className="hidden lg:block" aria-label="Filters">
          <SearchFilters state={state} facets={facets} />
        </aside>
        <section aria-labelledby="results-heading">
          <div className="mb-4 flex flex-wrap items-end justify-between gap-3">
            <div>
              <h1 id="results-heading" className="text-2xl font-semibold sm:text-3xl">
                {heading}
              </h1>
              <p className="mt-1 text-sm text-muted-foreground" data-testid="result-count">
                {resultCount}
              </p>
            </div>
            <div className="flex flex-wrap items-center gap-2">
              <MobileFilters state={state} facets={facets} total={resultCount} />
              <SortSelect state={state} />
              <LayoutToggle />
            </div>
          </div>

          <h2 className="sr-only">Products</h2>
          {result.products.length > 0 ? (
            <ProductListing products={result.products.map(toCardView)} />
          ) : (
            <div className="rounded-lg border bg-card px-6 py-12 text-center">
              <p className="font-serif text-xl font-semibold">No products found{state.search ? ` for "${state.search}"` : ""}</p>
              <p className="mt-2 text-sm text-muted-foreground">Try fewer words or filters, or a maker&apos;s name and a caliber number, like “Seiko 6139”.</p>
              <Button asChild variant="outline" className="mt-4">
                <Link href="/search">Browse everything</Link>
              </Button>
            </div>
          )}

          {totalPages > 1 || hasNext ? (
            <nav aria-label="Pages" className="mt-8 flex items-center justify-center gap-3 text-sm">
              {page > 1 ? (
                <Button asChild variant="outline">
                  <Link href={searchHref({ ...state, page: page - 1 })} rel="prev">
                    Previous
                  </Link>
                </Button>
              ) : null}
              <span className="text-muted-foreground">
                Page {page} of {formatMatchCount(Math.max(page, totalPages), totalItemsExact)}
              </span>
              {hasNext ? (
                <Button asChild variant="outline">
                  <Link href={searchHref({ ...state, page: page + 1 })} rel="next">
                    Next
                  </Link>
                </Button>
              ) : null}
            </nav>
          ) : null}
        </section>
      </div>
    </div>
  );
}
