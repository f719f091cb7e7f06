import { Decimal } from "decimal.js";
import { and, asc, count, desc, eq, gt, gte, inArray, isNull, lte, ne, or, sql, type SQL } from "drizzle-orm";
import { calibers, genders, itemTypes, productStates, type Caliber, type Gender, type ItemType, type ProductState } from "@/lib/enums";
import type { Db } from "@/server/db/client";
import { productImageKey, type StoragePort } from "@/server/integrations/storage/port";
import { discount, product, productCategory, productDescription, productManufacturer } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { bestDiscount, discountedPrice, formatDiscountValue, type DiscountTerms } from "@/server/pricing/discount-price";
import {
  PRODUCT_PAGE_SIZE,
  type FacetCount,
  type GetManyProductsQuery,
  type ProductCard,
  type ProductDetail,
  type ProductFacets,
  type ProductOrderBy,
  type ProductPage,
  type TreeFacetOption,
} from "./schemas";
import { buildSearchQuery, tsQuery } from "./search-query";

/** A product counts as new for this many days after it was listed. */
export const NEW_PRODUCT_DAYS = 30;
/** Related products shown under a product. */
const RELATED_PRODUCTS = 8;

export type ImageUrl = (key: string) => string;

/** A discount is in force when it is active and now lies inside its optional window. */
export function discountInForce(now: Date): SQL {
  return and(
    eq(discount.active, true),
    or(isNull(discount.startsAt), lte(discount.startsAt, now)),
    or(isNull(discount.expiresAt), gt(discount.expiresAt, now)),
  )!;
}

function treeMembers(table: "product_category" | "product_manufacturer", rootIds: number[]): SQL {
  const roots = sql.join(rootIds.map((id) => sql`${id}`), sql`, `);
  return sql`(with recursive tree as (
      select id from ${sql.identifier(table)} where id in (${roots})
      union all
      select child.id from ${sql.identifier(table)} child join tree on child.parent_id = tree.id
    ) select id from tree)`;
}

/** The filters a visitor can tick on /search, each of which gets option counts (facets). */
const facetFilters = ["category", "manufacturer", "caliber", "state", "gender", "itemType", "price", "inStock"] as const;
type FacetFilter = (typeof facetFilters)[number];

function filterConditions(input: GetManyProductsQuery): Partial<Record<FacetFilter, SQL>> {
  const conditions: Partial<Record<FacetFilter, SQL>> = {};
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
  if (query) conditions.push(sql`${product.searchVector} @@ ${tsQuery(query)}`);
  if (input.onSale) {
    conditions.push(sql`(${product.discountId} in (select ${discount.id} from ${discount} where ${discount.discountType} = 'PRODUCT' and ${discountInForce(now)})
      or exists (select 1 from ${discount} where ${discount.discountType} = 'GLOBAL' and ${discountInForce(now)}))`);
  }
  return conditions;
}

function orderClauses(orderBy: ProductOrderBy | undefined, query: string | null): SQL[] {
  if (orderBy && "price" in orderBy) return [orderBy.price === "asc" ? asc(product.price) : desc(product.price), desc(product.id)];
  if (orderBy && "name" in orderBy) return [orderBy.name === "asc" ? asc(product.name) : desc(product.name), desc(product.id)];
  if (orderBy && "createdAt" in orderBy) {
    return orderBy.createdAt === "asc" ? [asc(product.createdAt), asc(product.id)] : [desc(product.createdAt), desc(product.id)];
  }
  if (query) return [sql`ts_rank(${product.searchVector}, ${tsQuery(query)}) desc`, desc(product.createdAt), desc(product.id)];
  return [desc(product.createdAt), desc(product.id)];
}

/** The GLOBAL discounts in force; few, so they are read once per listing and applied in code. */
async function globalDiscounts(db: Db, now: Date): Promise<DiscountTerms[]> {
  return db
    .select({ value: discount.value, pricingType: discount.pricingType })
    .from(discount)
    .where(and(eq(discount.discountType, "GLOBAL"), discountInForce(now)));
}

/** The columns of a product card, with its PRODUCT discount in force (if any) joined. */
function cardSelect(db: Db, now: Date) {
  return db
    .select({
      id: product.id,
      name: product.name,
      price: product.price,
      stock: product.stock,
      createdAt: product.createdAt,
      manufacturer: productManufacturer.name,
      category: productCategory.name,
      caliber: productDescription.caliber,
      state: productDescription.state,
      itemType: productDescription.itemType,
      gender: productDescription.gender,
      discountValue: discount.value,
      discountPricingType: discount.pricingType,
    })
    .from(product)
    .leftJoin(productDescription, eq(productDescription.productId, product.id))
    .leftJoin(productManufacturer, eq(productManufacturer.id, product.manufacturerId))
    .leftJoin(productCategory, eq(productCategory.id, product.categoryId))
    .leftJoin(discount, and(eq(discount.id, product.discountId), eq(discount.discountType, "PRODUCT"), discountInForce(now)));
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
    caliber: row.caliber ?? null,
    state: row.state ?? "UNKNOWN",
    itemType: row.itemType ?? "UNKNOWN",
    gender: row.gender ?? "UNKNOWN",
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
 * relevance.
 */
export async function getManyProducts(
  db: Db,
  input: GetManyProductsQuery,
  options: { imageUrl: ImageUrl; now?: Date },
): Promise<ProductPage> {
  const now = options.now ?? new Date();
  const query = input.search ? await buildSearchQuery(db, input.search) : null;
  const base = baseConditions(input, query, now);
  const filters = filterConditions(input);
  const where = and(...base, ...Object.values(filters));

  const offset = (input.page - 1) * PRODUCT_PAGE_SIZE;
  const [rows, totalItems, facets, globals] = await Promise.all([
    cardSelect(db, now)
      .where(where)
      .orderBy(...orderClauses(input.orderBy, query))
      .limit(PRODUCT_PAGE_SIZE)
      .offset(offset),
    input.facets
      ? null
      : db
          .select({ value: count() })
          .from(product)
          .leftJoin(productDescription, eq(productDescription.productId, product.id))
          .where(where)
          .then(([row]) => row?.value ?? 0),
    input.facets ? facetCounts(db, base, filters, input) : null,
    globalDiscounts(db, now),
  ]);

  const total = facets?.total ?? totalItems ?? 0;
  return {
    products: rows.map((row) => toCard(row, globals, now, options.imageUrl)),
    pagination: {
      page: input.page,
      pageSize: PRODUCT_PAGE_SIZE,
      totalItems: total,
      totalPages: Math.max(1, Math.ceil(total / PRODUCT_PAGE_SIZE)),
    },
    facets: facets?.facets ?? null,
  };
}

type FacetRow = { facet: string; value: string | null; extra: string | null; count: number | string };

/**
 * All facet counts in one statement: the products matching the search are read once, with a flag per filter saying
 * whether the product passes it, and each facet counts the products that pass every *other* filter (so ticking a
 * second brand adds to the results instead of emptying them). The total is the count passing all of them.
 */
async function facetCounts(
  db: Db,
  base: SQL[],
  filters: Partial<Record<FacetFilter, SQL>>,
  input: GetManyProductsQuery,
): Promise<{ facets: ProductFacets; total: number }> {
  const flag = (name: FacetFilter) => sql.raw(`ok_${name.toLowerCase()}`);
  const flags = sql.join(
    facetFilters.map((name) => sql`${filters[name] ?? sql`true`} as ${flag(name)}`),
    sql`, `,
  );
  const passingAllBut = (except: FacetFilter | null) =>
    sql.join(facetFilters.filter((name) => name !== except).map(flag), sql` and `);
  const grouped = (facet: string, column: string, except: FacetFilter) =>
    sql`select ${facet} as facet, ${sql.raw(column)}::text as value, null as extra, count(*)::int as count
        from matched where ${passingAllBut(except)} group by ${sql.raw(column)}`;

  const statement = sql`with matched as materialized (
      select ${product.price} as price, ${product.stock} as stock, ${product.categoryId} as category_id,
             ${product.manufacturerId} as manufacturer_id, ${productDescription.caliber} as caliber,
             ${productDescription.state} as state, ${productDescription.gender} as gender,
             ${productDescription.itemType} as item_type, ${flags}
      from ${product} left join ${productDescription} on ${productDescription.productId} = ${product.id}
      where ${and(...base)}
    )
    ${grouped("category", "category_id", "category")}
    union all ${grouped("manufacturer", "manufacturer_id", "manufacturer")}
    union all ${grouped("caliber", "caliber", "caliber")}
    union all ${grouped("state", "state", "state")}
    union all ${grouped("gender", "gender", "gender")}
    union all ${grouped("itemType", "item_type", "itemType")}
    union all select 'price', min(price)::text, max(price)::text, count(*)::int from matched where ${passingAllBut("price")}
    union all select 'inStock', null, null, count(*)::int from matched where ${passingAllBut("inStock")} and stock > 0
    union all select 'total', null, null, count(*)::int from matched where ${passingAllBut(null)}`;

  const [rows, categories, manufacturers] = await Promise.all([
    (db.execute(statement) as unknown as Promise<{ rows: FacetRow[] }>).then((result) => result.rows),
    db.select({ id: productCategory.id, name: productCategory.name, parentId: productCategory.parentId, orderWeight: productCategory.orderWeight }).from(productCategory),
    db
      .select({ id: productManufacturer.id, name: productManufacturer.name, parentId: productManufacturer.parentId, orderWeight: productManufacturer.orderWeight })
      .from(productManufacturer),
  ]);

  const of = (facet: string) => rows.filter((row) => row.facet === facet);
  const counted = <V extends string>(facet: string, values: readonly V[]): FacetCount<V>[] => {
    const byValue = new Map(of(facet).map((row) => [row.value, Number(row.count)]));
    return values
      .filter((value) => value !== "UNKNOWN" && (byValue.get(value) ?? 0) > 0)
      .map((value) => ({ value, count: byValue.get(value) ?? 0 }));
  };
  const directCounts = (facet: string) =>
    new Map(of(facet).filter((row) => row.value !== null).map((row) => [Number(row.value), Number(row.count)]));
  const priceRow = of("price")[0];

  return {
    total: Number(of("total")[0]?.count ?? 0),
    facets: {
      category: countTree(categories, directCounts("category"), new Set(input.categoryId ?? [])),
      manufacturer: countTree(manufacturers, directCounts("manufacturer"), new Set(input.manufacturerId ?? [])),
      caliber: counted<Caliber>("caliber", calibers),
      state: counted<ProductState>("state", productStates),
      gender: counted<Gender>("gender", genders),
      itemType: counted<ItemType>("itemType", itemTypes),
      price: priceRow?.value && priceRow.extra ? { min: new Decimal(priceRow.value), max: new Decimal(priceRow.extra) } : null,
      inStock: Number(of("inStock")[0]?.count ?? 0),
    },
  };
}

type TreeNode = { id: number; name: string; parentId: number | null; orderWeight: number };

/**
 * The category or manufacturer tree with, on every node, the matches filed in it or anywhere below it. Nodes with
 * no match are left out unless ticked, so that a ticked option can always be unticked.
 */
export function countTree(nodes: TreeNode[], direct: Map<number, number>, selected: Set<number>): TreeFacetOption[] {
  const children = new Map<number | null, TreeNode[]>();
  for (const node of nodes) children.set(node.parentId, [...(children.get(node.parentId) ?? []), node]);
  const build = (parentId: number | null, seen: Set<number>): TreeFacetOption[] =>
    (children.get(parentId) ?? [])
      .filter((node) => !seen.has(node.id))
      .sort((a, b) => a.orderWeight - b.orderWeight || a.name.localeCompare(b.name))
      .map((node) => {
        const below = build(node.id, new Set([...seen, node.id]));
        const total = (direct.get(node.id) ?? 0) + below.reduce((sum, child) => sum + child.count, 0);
        return { id: node.id, name: node.name, count: total, children: below };
      })
      .filter((option) => option.count > 0 || selected.has(option.id) || option.children.length > 0);
  return build(null, new Set());
}

/** The product page: the card, every description field, all pictures and related products. */
export async function getProductDetail(
  db: Db,
  id: number,
  options: { imageUrl: ImageUrl; imageKeys: (productId: number) => Promise<string[]>; now?: Date },
): Promise<ProductDetail> {
  const now = options.now ?? new Date();
  const [[row], globals] = await Promise.all([
    cardSelect(db, now)
      .where(and(eq(product.id, id), eq(product.wsStatus, "ONLINE")))
      .limit(1),
    globalDiscounts(db, now),
  ]);
  if (!row) throw new AppError("NOT_FOUND", `There is no product ${id} in the shop.`);

  const [[details], keys] = await Promise.all([
    db
      .select({
        categoryId: product.categoryId,
        manufacturerId: product.manufacturerId,
        relatedCategoryId: productCategory.relatedTo,
        condition: productDescription.condition,
        movement: productDescription.movement,
        dimensions: productDescription.dimensions,
        serialNumber: productDescription.serialNumber,
        dialHands: productDescription.dialHands,
        crystal: productDescription.crystal,
        bezel: productDescription.bezel,
        crown: productDescription.crown,
        braceletStrap: productDescription.braceletStrap,
        language: productDescription.language,
        additional: productDescription.additional,
        additional2: productDescription.additional2,
        additional3: productDescription.additional3,
      })
      .from(product)
      .leftJoin(productDescription, eq(productDescription.productId, product.id))
      .leftJoin(productCategory, eq(productCategory.id, product.categoryId))
      .where(eq(product.id, id)),
    options.imageKeys(id),
  ]);
  const { categoryId = null, manufacturerId = null, relatedCategoryId = null, ...description } = details ?? {};

  // Same category or its related one ("a crown relates to crown sets"), in stock first, newest first.
  const relatedCategories = [categoryId, relatedCategoryId].filter((value): value is number => value !== null);
  const related =
    relatedCategories.length > 0
      ? await cardSelect(db, now)
          .where(and(eq(product.wsStatus, "ONLINE"), ne(product.id, id), inArray(product.categoryId, relatedCategories)))
          .orderBy(sql`${product.stock} > 0 desc`, desc(product.createdAt), desc(product.id))
          .limit(RELATED_PRODUCTS)
      : [];

  const imageKeys = keys.length > 0 ? keys : [productImageKey(id)];
  return {
    ...toCard(row, globals, now, options.imageUrl),
    categoryId,
    manufacturerId,
    images: imageKeys.map(options.imageUrl),
    description,
    related: related.map((relatedRow) => toCard(relatedRow, globals, now, options.imageUrl)),
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

/** The keys of a product's pictures (`products/{id}/N.webp`) in storage, by position N. */
export async function productImageKeys(storage: Pick<StoragePort, "list">, productId: number): Promise<string[]> {
  const position = (key: string) => Number(/\/(\d+)\.webp$/.exec(key)?.[1] ?? Number.NaN);
  return (await storage.list(`products/${productId}/`))
    .map((object) => object.key)
    .filter((key) => Number.isInteger(position(key)))
    .sort((a, b) => position(a) - position(b));
}
