import "server-only";
import { Decimal } from "decimal.js";
import { asc, eq, inArray } from "drizzle-orm";
import { catalogueChanged } from "@/server/cache/catalogue";
import type { Db } from "@/server/db/client";
import { product, productCategory, productDescription, productManufacturer } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { logProductChange } from "@/server/logbook/service";
import { addPurchaseRecord } from "@/server/stock/boxes";
import { moveHoldings } from "@/server/stock/holdings";
import { productEuroRange, type BulkProductAction, type PriceChange } from "./admin-schemas";
import { descriptionTextColumns } from "./columns";
import { publishProducts, unpublishProducts } from "./publishing";
import { buildSearchText } from "./search-text";

/**
 * Bulk actions on the product table's selection. Each is one transaction and all or nothing: a product that cannot
 * take the change (a price that would fall to zero, a placeholder left, a box no longer OPEN) refuses the lot,
 * naming it, and nothing is changed. Each product's change is logged as a single edit logs it, and what visitors see
 * is refreshed for all of them at once.
 */
export async function bulkChangeProducts(db: Db, action: BulkProductAction, userId: string): Promise<{ changed: number }> {
  const ids = [...new Set(action.productIds)].sort((a, b) => a - b);
  await db.transaction(async (tx) => {
    switch (action.action) {
      case "publish":
        return publishProducts(tx, ids, action.channels, userId);
      case "unpublish":
        return unpublishProducts(tx, ids, userId);
      case "category":
        return moveToCategory(tx, ids, action.categoryId, userId);
      case "price":
        return changePrices(tx, ids, action.change, userId);
      case "box":
        // Purchases reach stock when the box is exploded; addPurchaseRecord refuses a box that is not OPEN.
        for (const productId of ids) {
          await addPurchaseRecord(tx, { boxId: action.boxId, productId, quantity: action.quantity, unitCost: action.unitCost, currency: action.currency }, userId);
        }
        return;
    }
  });
  return { changed: ids.length };
}

/** Locks the products in id order, the order every change of several products takes them in; refuses ids that do not exist. */
async function lockedProducts<T extends Record<string, unknown>>(tx: Db, ids: number[], read: (ids: number[]) => Promise<(T & { id: number })[]>) {
  const rows = await read(ids);
  const missing = ids.filter((id) => !rows.some((row) => row.id === id));
  if (missing.length) throw new AppError("NOT_FOUND", `Product ${missing.join(", ")} does not exist.`);
  return rows;
}

/** The category is part of a product's search text, which is written anew with it. */
async function moveToCategory(tx: Db, ids: number[], categoryId: number, userId: string): Promise<void> {
  const [category] = await tx.select({ name: productCategory.name }).from(productCategory).where(eq(productCategory.id, categoryId));
  if (!category) throw new AppError("BAD_REQUEST", `Category ${categoryId} does not exist.`);
  const rows = await lockedProducts(tx, ids, (wanted) =>
    tx
      .select({
        id: product.id,
        name: product.name,
        categoryId: product.categoryId,
        manufacturer: productManufacturer.name,
        caliber: productDescription.caliber,
        itemType: productDescription.itemType,
        ...descriptionTextColumns,
      })
      .from(product)
      .leftJoin(productDescription, eq(productDescription.productId, product.id))
      .leftJoin(productManufacturer, eq(productManufacturer.id, product.manufacturerId))
      .where(inArray(product.id, wanted))
      .orderBy(asc(product.id))
      .for("update", { of: product }),
  );
  for (const row of rows) {
    const searchText = buildSearchText({ name: row.name, manufacturer: row.manufacturer, category: category.name, caliber: row.caliber, itemType: row.itemType, description: row });
    await tx.update(product).set({ categoryId, searchText }).where(eq(product.id, row.id));
    await moveHoldings(tx, [{ productId: row.id, from: row.categoryId, to: categoryId }]);
    await logProductChange(tx, row.id, {
      userId,
      previousState: { categoryId: row.categoryId },
      newState: { categoryId },
      description: `Product ${row.id} moved to category ${category.name}`,
    });
  }
  await catalogueChanged(tx, { productIds: ids });
}

/** A price after the change, rounded to the cent (half up). */
export function changedPrice(price: Decimal, change: PriceChange): Decimal {
  const value = new Decimal(change.value);
  const delta = change.by === "percent" ? price.times(value).dividedBy(100) : value;
  return (change.direction === "up" ? price.plus(delta) : price.minus(delta)).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}

async function changePrices(tx: Db, ids: number[], change: PriceChange, userId: string): Promise<void> {
  const rows = await lockedProducts(tx, ids, (wanted) =>
    tx.select({ id: product.id, name: product.name, price: product.price }).from(product).where(inArray(product.id, wanted)).orderBy(asc(product.id)).for("update"),
  );
  const how = `${change.direction === "up" ? "+" : "−"}${change.by === "percent" ? `${change.value} %` : `€${new Decimal(change.value).toFixed(2)}`}`;
  for (const row of rows) {
    const price = changedPrice(row.price, change);
    if (price.lte(0) || price.gt(productEuroRange.max)) {
      const result = price.lte(0) ? "leaves no price above €0.00" : "is more than a price can be";
      throw new AppError("BAD_REQUEST", `#${row.id} ${row.name} costs €${row.price.toFixed(2)}: ${how} ${result}. Nothing was changed; leave it out of the selection or change less.`);
    }
    await tx.update(product).set({ price }).where(eq(product.id, row.id));
    await logProductChange(tx, row.id, {
      userId,
      previousState: { price: row.price.toFixed(2) },
      newState: { price: price.toFixed(2) },
      description: `Product ${row.id} changed: price ${row.price.toFixed(2)} → ${price.toFixed(2)} (bulk ${how})`,
    });
  }
  await catalogueChanged(tx, { productIds: ids });
}
