import "server-only";
import { Decimal } from "decimal.js";
import { and, asc, count, desc, eq, gt, gte, inArray, lte, sql, type SQL } from "drizzle-orm";
import type { SelectedFields } from "drizzle-orm/pg-core";
import type { Db } from "@/server/db/client";
import { pageCount } from "@/server/db/page";
import { productImageKey } from "@/server/integrations/storage/port";
import { discount, product, productCategory, productDescription, productManufacturer } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { productDiscountInForce, productOnSale } from "@/server/discounts/in-force";
import { globalDiscounts } from "@/server/discounts/service";
import { bestDiscount, discountedPrice, formatDiscountValue, type DiscountTerms } from "@/server/discounts/discount-price";
import { classificationOf } from "./classification";
import { classificationColumns, columnsOf, descriptionTextColumns } from "./columns";
import { facetCounts, type FilterConditions, type ListingRows, type PageQuery, type SortColumns } from "./facets";
import { withProductNames } from "./product-names";
import { descriptionFields, PRODUCT_PAGE_SIZE, type GetManyProductsQuery, type ProductCard, type ProductDetail, type ProductOrderBy, type ProductPage } from "./schemas";
import { buildSearchQuery, productIdSearched, tsQuery } from "./search-query";

/** A product counts as new for this many days after it was listed. */
export const NEW_PRODUCT_DAYS = 30;
/** Related products shown under a product. */
const RELATED_PRODUCTS = 8;
/**
 * A listing counts its matches (and facet options) up to this many past the start of the page, and says "1,000+"
 * beyond: exact counts of a search matching 40 000 products would read all 40 000 on every page view.
 */
export const MATCH_COUNT_LIMIT = 1000;
/** Relevance ranks the latest this-many matches (see `pageIds`); whole pages, so no page straddles the edge. */
export const RANKED_MATCHES = 40 * PRODUCT_PAGE_SIZE;

export type ImageUrl = (key: string) => string;

function treeMembers(table: "product_category" | "product_manufacturer", rootIds: number[]): SQL {
  const roots = sql.join(rootIds.map((id) => sql`${id}`), sql`, `);
  return sql`(with recursive tree as (
      select id from ${sql.identifier(table)} where id in (${roots})
      union all
      select child.id from ${sql.identifier(table)} child join tree on child.parent_id = tree.id
    ) select id from tree)`;
}

function filterConditions(input: GetManyProductsQuery): FilterConditions {
  const conditions: FilterConditions = {};
  if (input.categoryId?.length) conditions.category = sql`${product.categoryId} in ${treeMembers("product_category", input.categoryId)}`;
  if (input.manufacturerId?.length) {
    conditions.manufacturer = sql`${product.manufacturerId} in ${treeMembers("product_manufacturer", input.manufacturerId)}`;
  }
  if (input.caliber?.length) conditions.caliber = inArray(productDescription.caliber, input.caliber);
  if (input.state?.length) conditions.state = inArray(productDescription.state, input.state);
  if (input.gender?.length) conditions.gender = inArray(productDescription.gender, input.gender);
  if (input.itemType?.length) conditions.itemType = inArray(productDescription.itemType, input.itemType);
  const price = [
    input.priceMin ? gte(product.price, new Decimal(input.priceMin)) : undefined,
    input.priceMax ? lte(product.price, new Decimal(input.priceMax)) : undefined,
  ].filter((condition): condition is SQL => condition !== undefined);
  if (price.length) conditions.price = and(...price)!;
  if (input.inStock) conditions.inStock = gt(product.stock, 0);
  return conditions;
}

/** What every match must satisfy whatever the facets: on the web shop, the search words, on sale if asked. */
function baseConditions(input: GetManyProductsQuery, query: string | null, now: Date): SQL[] {
  const conditions: SQL[] = [eq(product.wsStatus, "ONLINE")];
  const id = input.search ? productIdSearched(input.search) : null;
  if (id !== null) conditions.push(eq(product.id, id));
  if (query) conditions.push(sql`${product.searchVector} @@ ${tsQuery(query)}`);
  if (input.onSale) {
    conditions.push(productOnSale(now));
  }
  return conditions;
}

function orderClauses(columns: SortColumns, orderBy: ProductOrderBy | undefined): SQL[] {
  if (orderBy && "price" in orderBy) return [orderBy.price === "asc" ? asc(columns.price) : desc(columns.price), desc(columns.id)];
  if (orderBy && "name" in orderBy) return [orderBy.name === "asc" ? asc(columns.name) : desc(columns.name), desc(columns.id)];
  if (orderBy && "createdAt" in orderBy && orderBy.createdAt === "asc") return [asc(columns.createdAt), asc(columns.id)];
  return [desc(columns.createdAt), desc(columns.id)];
}

function isRanked(orderBy: ProductOrderBy | undefined, query: string | null): query is string {
  return query !== null && (!orderBy || "relevance" in orderBy);
}

/** The order of a page's rows: by relevance within the ranked matches, by the asked order otherwise. */
function pageOrder(columns: SortColumns, orderBy: ProductOrderBy | undefined, query: string | null, offset: number): SQL[] {
  if (!isRanked(orderBy, query)) return orderClauses(columns, orderBy);
  if (offset >= RANKED_MATCHES) return [desc(columns.id)];
  return [desc(columns.rank), desc(columns.createdAt), desc(columns.id)];
}

/**
 * The ids of one page of matches. Relevance is ranked over the `RANKED_MATCHES` most recently listed matches
 * (highest ids), which covers every match of all but the broadest searches: ranking all 40 000 products that
 * mention "crown" means reading every one of them for each page, while the latest few hundred sit together at the
 * end of the table. Pages past those continue with the earlier listed matches, latest first, so every match still
 * appears exactly once across the pages.
 */
function pageIds(rows: ListingRows, orderBy: ProductOrderBy | undefined, query: string | null, offset: number): SQL {
  const where = rows.where ? sql` where ${rows.where}` : sql``;
  const page = sql`limit ${PRODUCT_PAGE_SIZE} offset ${offset}`;
  // Rows that come latest first are not sorted again: sorting would read every one, not just the latest.
  const byId = rows.latestFirst ? sql`` : sql` order by ${rows.columns.id} desc`;
  if (!isRanked(orderBy, query)) {
    return sql`select ${rows.columns.id} as id from ${rows.from}${where} order by ${sql.join(orderClauses(rows.columns, orderBy), sql`, `)} ${page}`;
  }
  if (offset >= RANKED_MATCHES) return sql`select ${rows.columns.id} as id from ${rows.from}${where}${byId} ${page}`;
  const latest = { id: sql`latest.id`, createdAt: sql`latest.created_at`, price: sql`latest.price`, name: sql`latest.name`, rank: sql`latest.rank` };
  return sql`select latest.id from (
      select ${rows.columns.id} as id, ${rows.columns.createdAt} as created_at, ${rows.columns.rank} as rank
      from ${rows.from}${where}${byId} limit ${RANKED_MATCHES}
    ) as latest order by ${sql.join(pageOrder(latest, orderBy, query, offset), sql`, `)} ${page}`;
}

/** The products passing `where`, each joined to its description (for the description filters). */
function productRows(where: SQL | undefined, orderBy: ProductOrderBy | undefined, query: string | null): ListingRows {
  const rank = isRanked(orderBy, query) ? sql`ts_rank(${product.searchVector}, ${tsQuery(query)})` : sql`null::real`;
  return {
    from: sql`${product} left join ${productDescription} on ${productDescription.productId} = ${product.id}`,
    where,
    columns: { id: product.id, createdAt: product.createdAt, price: product.price, name: product.name, rank },
    latestFirst: false,
  };
}

/** The number of matches, reading no more than `limit + 1` of them. */
async function countMatches(db: Db, where: SQL | undefined, limit: number): Promise<{ total: number; totalExact: boolean; facets: null }> {
  const read = db
    .select({ one: sql`1` })
    .from(product)
    .leftJoin(productDescription, eq(productDescription.productId, product.id))
    .where(where)
    .limit(limit + 1)
    .as("read");
  const [row] = await db.select({ value: count() }).from(read);
  const total = row?.value ?? 0;
  return { total: Math.min(total, limit), totalExact: total <= limit, facets: null };
}

const cardColumns = {
  ...columnsOf(product, "id", "name", "price", "stock", "createdAt"),
  manufacturer: productManufacturer.name,
  category: productCategory.name,
  ...classificationColumns,
  discountValue: discount.value,
  discountPricingType: discount.pricingType,
};

/**
 * The columns of a product card, with its PRODUCT discount in force (if any) joined; `more` columns of the product,
 * its names and its description besides (the product page's).
 */
function cardSelect<More extends SelectedFields = Record<never, never>>(db: Db, now: Date, more?: More) {
  const query = db
    .select({ ...cardColumns, ...(more as More) })
    .from(product)
    .$dynamic();
  return withProductNames(query).leftJoin(discount, productDiscountInForce(now));
}

type CardRow = Awaited<ReturnType<ReturnType<typeof cardSelect>["execute"]>>[number];

/** The best PRODUCT or GLOBAL discount in force for a price, as the card shows it. */
function appliedDiscount(price: Decimal, productDiscount: DiscountTerms | null, globals: DiscountTerms[]) {
  const applied = bestDiscount(price, productDiscount ? [productDiscount, ...globals] : globals);
  return applied ? { value: formatDiscountValue(applied), discountedPrice: discountedPrice(price, applied) } : null;
}

function toCard(row: CardRow, globals: DiscountTerms[], now: Date, imageUrl: ImageUrl): ProductCard {
  const productDiscount = row.discountValue && row.discountPricingType ? { value: row.discountValue, pricingType: row.discountPricingType } : null;
  return {
    id: row.id,
    manufacturer: row.manufacturer,
    name: row.name,
    price: row.price,
    category: row.category,
    ...classificationOf(row),
    // The card's caliber is nullable (SPEC section 3): a product without a description has none.
    caliber: row.caliber,
    discount: appliedDiscount(row.price, productDiscount, globals),
    isNew: row.createdAt.getTime() >= now.getTime() - NEW_PRODUCT_DAYS * 24 * 60 * 60 * 1000,
    createdAt: row.createdAt,
    stock: row.stock,
    image: imageUrl(productImageKey(row.id)),
  };
}

/**
 * One page of the storefront listing: the products on the web shop that match the search and filters, as product
 * cards with the best PRODUCT or GLOBAL discount in force applied, the number of matches and, when asked, the
 * facet counts. A search is typo tolerant (see `buildSearchQuery`) and, unless another order is asked, ranked by
 * relevance (see `pageIds`).
 *
 * The work is bounded whatever the search: counts stop `MATCH_COUNT_LIMIT` matches past the start of the page and
 * then say so (`totalItemsExact`, `facets.exact`), so a search for "watch" on 100 000 products answers as fast as
 * one for "seiko 6139".
 */
export async function getManyProducts(
  db: Db,
  input: GetManyProductsQuery,
  options: { imageUrl: ImageUrl; now?: Date },
): Promise<ProductPage> {
  const now = options.now ?? new Date();
  // "#15" is product 15 (see `productIdSearched`), not the words starting with 15.
  const byWords = input.search && productIdSearched(input.search) === null ? input.search : null;
  const [query, globals] = await Promise.all([byWords ? buildSearchQuery(db, byWords) : null, globalDiscounts(db, now)]);
  const base = baseConditions(input, query, now);
  const filters = filterConditions(input);
  const where = and(...base, ...Object.values(filters));

  const offset = (input.page - 1) * PRODUCT_PAGE_SIZE;
  const countLimit = offset + MATCH_COUNT_LIMIT;
  const products = productRows(where, input.orderBy, query);
  const page: PageQuery = {
    ids: (rows) => pageIds(rows, input.orderBy, query, offset),
    products,
    latest: isRanked(input.orderBy, query) ? Math.max(RANKED_MATCHES, offset + PRODUCT_PAGE_SIZE) : null,
  };
  const cards = (ids: SQL | number[]) =>
    cardSelect(db, now)
      .where(inArray(product.id, ids))
      .orderBy(...pageOrder(products.columns, input.orderBy, query, offset));
  // With facets, one statement counts and finds the page's ids (mostly among the matches it counted), then the cards
  // are read; without, the page's cards and the count are read side by side.
  const withFacets = async () => {
    const faceted = await facetCounts(db, base, filters, input, countLimit, page);
    return [await cards(faceted.pageIds), faceted] as const;
  };
  const [rows, counted] = input.facets
    ? await withFacets()
    : await Promise.all([cards(sql`(${page.ids(products)})`), countMatches(db, where, countLimit)]);

  return {
    products: rows.map((row) => toCard(row, globals, now, options.imageUrl)),
    pagination: {
      page: input.page,
      pageSize: PRODUCT_PAGE_SIZE,
      totalItems: counted.total,
      totalItemsExact: counted.totalExact,
      totalPages: pageCount(counted.total, PRODUCT_PAGE_SIZE),
    },
    facets: counted.facets,
  };
}

/**
 * Pieces to show under a product of these categories (its own and the one it relates to: "a crown relates to crown
 * sets"): in stock first, newest first. One more than a page shows, so that a product among them can leave itself out
 * and still show `RELATED_PRODUCTS`: every product of the categories shares this one read (and its cached copy).
 */
export async function relatedPieces(db: Db, categoryIds: number[], options: { imageUrl: ImageUrl; now?: Date }): Promise<ProductCard[]> {
  if (categoryIds.length === 0) return [];
  const now = options.now ?? new Date();
  const wanted = RELATED_PRODUCTS + 1;
  const order = [sql`${product.stock} > 0 desc`, desc(product.createdAt), desc(product.id)];
  // Each category's first few on their own, then the first of those: with an index in this order per category, each
  // is a few index entries, where one sort over both would read every product of both categories.
  const firstOfEach = categoryIds.map(
    (categoryId) =>
      sql`(select ${product.id} from ${product} where ${and(eq(product.wsStatus, "ONLINE"), eq(product.categoryId, categoryId))}
           order by ${sql.join(order, sql`, `)} limit ${wanted})`,
  );
  const [rows, globals] = await Promise.all([
    cardSelect(db, now)
      .where(inArray(product.id, sql`(${sql.join(firstOfEach, sql` union all `)})`))
      .orderBy(...order)
      .limit(wanted),
    globalDiscounts(db, now),
  ]);
  return rows.map((row) => toCard(row, globals, now, options.imageUrl));
}

/** The categories whose pieces a product's page shows as related (see `relatedPieces`). */
export type RelatedPieces = (categoryIds: number[]) => Promise<ProductCard[]>;

/**
 * The product page: the card, every description field, all pictures and related products. The product is one read;
 * the related pieces are its categories' (`related`, cached for all their products by the caller).
 */
export async function getProductDetail(
  db: Db,
  id: number,
  options: { imageUrl: ImageUrl; imageKeys: (productId: number) => Promise<string[]>; related: RelatedPieces; now?: Date },
): Promise<ProductDetail> {
  const now = options.now ?? new Date();
  const [[row], globals, keys] = await Promise.all([
    cardSelect(db, now, { ...columnsOf(product, "categoryId", "manufacturerId"), relatedCategoryId: productCategory.relatedTo, ...descriptionTextColumns })
      .where(and(eq(product.id, id), eq(product.wsStatus, "ONLINE")))
      .limit(1),
    globalDiscounts(db, now),
    options.imageKeys(id),
  ]);
  if (!row) throw new AppError("NOT_FOUND", `There is no product ${id} in the shop.`);
  const { categoryId, manufacturerId, relatedCategoryId } = row;
  const description = Object.fromEntries(descriptionFields.map((field) => [field, row[field]])) as ProductDetail["description"];

  const relatedCategories = [categoryId, relatedCategoryId].filter((value): value is number => value !== null);
  const related = relatedCategories.length > 0 ? await options.related([...new Set(relatedCategories)]) : [];

  const imageKeys = keys.length > 0 ? keys : [productImageKey(id)];
  return {
    ...toCard(row, globals, now, options.imageUrl),
    categoryId,
    manufacturerId,
    images: imageKeys.map(options.imageUrl),
    description,
    related: related.filter((piece) => piece.id !== id).slice(0, RELATED_PRODUCTS),
  };
}

/** Products on the web shop with when they last changed, for the sitemap, lowest id first. */
export async function listProductsForSitemap(db: Db, options: { offset: number; limit: number }) {
  return db
    .select({ id: product.id, updatedAt: product.updatedAt })
    .from(product)
    .where(eq(product.wsStatus, "ONLINE"))
    .orderBy(asc(product.id))
    .limit(options.limit)
    .offset(options.offset);
}
