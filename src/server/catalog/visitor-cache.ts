import "server-only";
import { cachedForVisitors, catalogueTags } from "@/server/cache/catalogue";
import { storageImageUrl, storedProductImageKeys } from "./images";
import type { GetManyProductsQuery } from "./schemas";
import { getManyProducts, getProductDetail } from "./service";

/** A product page's data from cache; its related pieces make it a listing too. */
export const cachedProductDetail = cachedForVisitors(
  "product-detail",
  (db, id: number) => getProductDetail(db, id, { imageUrl: storageImageUrl, imageKeys: storedProductImageKeys }),
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
