import type { Caliber, Gender, ItemType, ProductState } from "@/lib/enums";
import { formatEuro } from "@/lib/money";
import type { FacetCount, ProductFacets, TreeFacetOption } from "@/server/catalog/schemas";
import { formatMatchCount } from "./match-count";

export type TreeFacetView = TreeFacetOption & { countText: string; children: TreeFacetView[] };
export type FacetCountView<V extends string> = FacetCount<V> & { countText: string };

/**
 * Facets as the filters receive them, with every count written as the shop writes it ("1,000+") and the price
 * bounds in euro. Written on the server: the filters hydrate on every /search, and formatting numbers in the browser
 * first loads the formatter's locale data, a long pause on a phone.
 */
export type FacetsView = {
  category: TreeFacetView[];
  manufacturer: TreeFacetView[];
  caliber: FacetCountView<Caliber>[];
  state: FacetCountView<ProductState>[];
  gender: FacetCountView<Gender>[];
  itemType: FacetCountView<ItemType>[];
  price: { min: string; max: string } | null;
  inStockText: string;
};

export function toFacetsView(facets: ProductFacets): FacetsView {
  const countText = (count: number) => formatMatchCount(count, facets.exact);
  const tree = (options: TreeFacetOption[]): TreeFacetView[] =>
    options.map((option) => ({ ...option, countText: countText(option.count), children: tree(option.children) }));
  const counted = <V extends string>(options: FacetCount<V>[]): FacetCountView<V>[] => options.map((option) => ({ ...option, countText: countText(option.count) }));
  return {
    category: tree(facets.category),
    manufacturer: tree(facets.manufacturer),
    caliber: counted(facets.caliber),
    state: counted(facets.state),
    gender: counted(facets.gender),
    itemType: counted(facets.itemType),
    price: facets.price ? { min: formatEuro(facets.price.min), max: formatEuro(facets.price.max) } : null,
    inStockText: countText(facets.inStock),
  };
}
