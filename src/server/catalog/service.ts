import { Decimal } from "decimal.js";
import { and, asc, count, desc, eq, gt, gte, inArray, isNull, lte, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { productImageKey } from "@/server/integrations/storage/port";
import { discount, product, productCategory, productDescription, productManufacturer } from "@/server/db/schema";
import { bestDiscount, discountedPrice, formatDiscountValue, type DiscountTerms } from "@/server/pricing/discount-price";
import {
  PRODUCT_PAGE_SIZE,
  type GetManyProductsQuery,
  type ProductCard,
  type ProductOrderBy,
  type ProductPage,
} from "./schemas";

/** A product counts as new for this many days after it was listed. */
export const NEW_PRODUCT_DAYS = 30;

export type ImageUrl = (key: string) => string;

/** A discount is in force when it is active and now lies inside its optional window. */
export function discountInForce(now: Date): SQL {
  return and(
    eq(discount.active, true),
    or(isNull(discount.startsAt), lte(discount.startsAt, now)),
    or(isNull(discount.expiresAt), gt(discount.expiresAt, now)),
  )!;
}

function treeMembers(table: "product_category" | "product_manufacturer", rootId: number): SQL {
  return sql`(with recursive tree as (
      select id from ${sql.identifier(table)} where id = ${rootId}
      union all
      select child.id from ${sql.identifier(table)} child join tree on child.parent_id = tree.id
    ) select id from tree)`;
}

/** Full-text match on whole words, or a trigram match on words for misspellings ("sieko" finds Seiko). */
function searchCondition(term: string): SQL {
  return sql`(${product.searchVector} @@ websearch_to_tsquery('simple', ${term}) or ${term} <% ${product.searchText})`;
}

function searchRank(term: string): SQL<number> {
  return sql<number>`(ts_rank(${product.searchVector}, websearch_to_tsquery('simple', ${term})) + word_similarity(${term}, ${product.searchText}))`;
}

function orderClauses(orderBy: ProductOrderBy | undefined, term: string | undefined): SQL[] {
  if (orderBy && "price" in orderBy) return [orderBy.price === "asc" ? asc(product.price) : desc(product.price), desc(product.id)];
  if (orderBy && "name" in orderBy) return [orderBy.name === "asc" ? asc(product.name) : desc(product.name), desc(product.id)];
  if (orderBy && "createdAt" in orderBy) {
    return orderBy.createdAt === "asc" ? [asc(product.createdAt), asc(product.id)] : [desc(product.createdAt), desc(product.id)];
  }
  if (term) return [desc(searchRank(term)), desc(product.createdAt), desc(product.id)];
  return [desc(product.createdAt), desc(product.id)];
}

/** The GLOBAL discounts in force; few, so they are read once per listing and applied in code. */
async function globalDiscounts(db: Db, now: Date): Promise<DiscountTerms[]> {
  return db
    .select({ value: discount.value, pricingType: discount.pricingType })
    .from(discount)
    .where(and(eq(discount.discountType, "GLOBAL"), discountInForce(now)));
}

/**
 * One page of the storefront listing: the products on the web shop that match the search and filters, as product
 * cards with the best PRODUCT or GLOBAL discount in force applied, and the number of matches.
 */
export async function getManyProducts(
  db: Db,
  input: GetManyProductsQuery,
  options: { imageUrl: ImageUrl; now?: Date },
): Promise<ProductPage> {
  const now = options.now ?? new Date();
  const term = input.search && input.search.length > 0 ? input.search : undefined;

  const conditions: SQL[] = [eq(product.wsStatus, "ONLINE")];
  if (term) conditions.push(searchCondition(term));
  if (input.categoryId) conditions.push(sql`${product.categoryId} in ${treeMembers("product_category", input.categoryId)}`);
  if (input.manufacturerId) {
    conditions.push(sql`${product.manufacturerId} in ${treeMembers("product_manufacturer", input.manufacturerId)}`);
  }
  if (input.caliber?.length) conditions.push(inArray(productDescription.caliber, input.caliber));
  if (input.state?.length) conditions.push(inArray(productDescription.state, input.state));
  if (input.gender?.length) conditions.push(inArray(productDescription.gender, input.gender));
  if (input.itemType?.length) conditions.push(inArray(productDescription.itemType, input.itemType));
  if (input.priceMin) conditions.push(gte(product.price, new Decimal(input.priceMin)));
  if (input.priceMax) conditions.push(lte(product.price, new Decimal(input.priceMax)));
  if (input.inStock) conditions.push(gt(product.stock, 0));
  const where = and(...conditions);

  const offset = (input.page - 1) * PRODUCT_PAGE_SIZE;
  const [rows, [total], globals] = await Promise.all([
    db
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
      .leftJoin(discount, and(eq(discount.id, product.discountId), eq(discount.discountType, "PRODUCT"), discountInForce(now)))
      .where(where)
      .orderBy(...orderClauses(input.orderBy, term))
      .limit(PRODUCT_PAGE_SIZE)
      .offset(offset),
    db
      .select({ value: count() })
      .from(product)
      .leftJoin(productDescription, eq(productDescription.productId, product.id))
      .where(where),
    globalDiscounts(db, now),
  ]);

  const newSince = now.getTime() - NEW_PRODUCT_DAYS * 24 * 60 * 60 * 1000;
  const products = rows.map((row): ProductCard => {
    const productDiscount: DiscountTerms[] =
      row.discountValue && row.discountPricingType ? [{ value: row.discountValue, pricingType: row.discountPricingType }] : [];
    const applied = bestDiscount(row.price, [...productDiscount, ...globals]);
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
      discount: applied ? { value: formatDiscountValue(applied), discountedPrice: discountedPrice(row.price, applied) } : null,
      isNew: row.createdAt.getTime() >= newSince,
      createdAt: row.createdAt,
      stock: row.stock,
      image: options.imageUrl(productImageKey(row.id)),
    };
  });

  const totalItems = total?.value ?? 0;
  return {
    products,
    pagination: {
      page: input.page,
      pageSize: PRODUCT_PAGE_SIZE,
      totalItems,
      totalPages: Math.max(1, Math.ceil(totalItems / PRODUCT_PAGE_SIZE)),
    },
  };
}
