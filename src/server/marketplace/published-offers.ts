import "server-only";
import { and, asc, eq, type SQL } from "drizzle-orm";
import type { SelectedFields } from "drizzle-orm/pg-core";
import type { SelectResultFields } from "drizzle-orm/query-builders/select.types";
import type { Db } from "@/server/db/client";
import { marketplaceOffer, product } from "@/server/db/schema";

/**
 * A page of the published offers with their product, in product id order, read with the caller's columns: how the
 * bulk update and the reconciliation walk every listing. `after` is where the page starts.
 */
export async function readPublishedOffers<TFields extends SelectedFields>(db: Db, fields: TFields, after: SQL | undefined, limit: number): Promise<SelectResultFields<TFields>[]> {
  // Drizzle cannot work out the row type for generic fields; an inner join leaves it the fields' own.
  return db
    .select(fields as SelectedFields)
    .from(marketplaceOffer)
    .innerJoin(product, eq(product.id, marketplaceOffer.productId))
    .where(and(eq(marketplaceOffer.status, "PUBLISHED"), after))
    .orderBy(asc(marketplaceOffer.productId))
    .limit(limit) as unknown as Promise<SelectResultFields<TFields>[]>;
}
