import type { ProductFacets } from "@/server/catalog/schemas";

/** Facets as client components receive them: the price bounds as decimal text instead of Decimal. */
export type FacetsView = Omit<ProductFacets, "price"> & { price: { min: string; max: string } | null };

export function toFacetsView(facets: ProductFacets): FacetsView {
  return { ...facets, price: facets.price ? { min: facets.price.min.toFixed(2), max: facets.price.max.toFixed(2) } : null };
}
