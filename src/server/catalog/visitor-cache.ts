import "server-only";
import { cachedForVisitors, catalogueTags } from "@/server/cache/catalogue";
import { storageImageUrl, storedProductImageKeys } from "./images";
import type { GetManyProductsQuery } from "./schemas";
import { getManyProducts, getProductDetail, relatedPieces } from "./service";

/**
 * The pieces shown under every product of the same categories, from cache: read once for all of them, not again for
 * each product page (on 100 000 products, sorting a category's 15 000 for them cost more than the rest of the page).
 */
const cachedRelatedPieces = cachedForVisitors(
  "related-pieces",
  (db, categoryIds: number[]) => relatedPieces(db, categoryIds, { imageUrl: storageImageUrl }),
  () => [catalogueTags.listings],
);

/** A product page's data from cache; its related pieces make it a listing too. */
export const cachedProductDetail = cachedForVisitors(
  "product-detail",
  (db, id: number) =>
    getProductDetail(db, id, { imageUrl: storageImageUrl, imageKeys: storedProductImageKeys, related: (categoryIds) => cachedRelatedPieces(db, categoryIds) }),
  (id) => [catalogueTags.product(id), catalogueTags.listings],
);

/**
 * One page of a listing or search from cache, keyed by the whole query. A listing of typed words or prices stays in
 * this instance (`thisInstanceOnly`): there are as many as visitors care to type.
 */
export const cachedProductListing = cachedForVisitors(
  "product-listing",
  (db, query: GetManyProductsQuery) => getManyProducts(db, query, { imageUrl: storageImageUrl }),
  (query) => [catalogueTags.listings, ...(query.search || query.priceMin || query.priceMax ? [catalogueTags.thisInstanceOnly] : [])],
);
