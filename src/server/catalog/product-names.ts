import "server-only";
import { eq } from "drizzle-orm";
import type { PgSelect } from "drizzle-orm/pg-core";
import { product, productCategory, productDescription, productManufacturer } from "@/server/db/schema";

/**
 * Joins a product query (`.from(product).$dynamic()`) to the product's manufacturer, category and description, so it
 * can select their names. A product may lack any of the three, so their columns come back nullable.
 */
export function withProductNames<Query extends PgSelect>(query: Query) {
  return query
    .leftJoin(productManufacturer, eq(productManufacturer.id, product.manufacturerId))
    .leftJoin(productCategory, eq(productCategory.id, product.categoryId))
    .leftJoin(productDescription, eq(productDescription.productId, product.id));
}
