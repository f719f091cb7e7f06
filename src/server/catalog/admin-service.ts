import "server-only";
import { Decimal } from "decimal.js";
import { and, asc, count, desc, eq, gt, inArray, isNotNull, isNull, lte, sql, type SQL } from "drizzle-orm";
import { catalogueChanged } from "@/server/cache/catalogue";
import type { Db } from "@/server/db/client";
import { lockExistingRow } from "@/server/db/lock-row";
import { pageOf } from "@/server/db/page";
import { rawRows } from "@/server/db/raw-rows";
import { country, product, productCategory, productDescription, productManufacturer, productSelectOptions } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { productImageKey } from "@/server/integrations/storage/port";
import { logProductChange } from "@/server/logbook/service";
import { moveHoldings } from "@/server/stock/holdings";
import { requestQuantityPush } from "@/server/marketplace/quantity-push";
import { LOW_STOCK } from "@/server/stock/schemas";
import {
  descriptionTextFields,
  type AdminProduct,
  type AdminProductListQuery,
  type AdminProductPage,
  type CreateProductValues,
  type Choice,
  type DescriptionTextField,
  type ProductFormChoices,
  type ProductFormValues,
} from "./admin-schemas";
import { classificationOf } from "./classification";
import { classificationColumns, columnsOf, descriptionTextColumns } from "./columns";
import { withProductNames } from "./product-names";
import { everyWordStartsQuery, productIdSearched, queryWords } from "./search-query";
import { bookOpeningStock } from "./opening-stock";
import { assertPlaceholdersFilled } from "./publishing";
import { buildSearchText } from "./search-text";
import type { ImageUrl } from "./service";

// ---------------------------------------------------------------------------------------------------------------
// The products table
// ---------------------------------------------------------------------------------------------------------------

const sortColumns = columnsOf(product, "id", "name", "price", "stock", "createdAt", "updatedAt");

/**
 * Staff search: every word must start a word of the product's search text (full-text prefix match over the GIN
 * index, so "6139" and "seam" find "Seiko 6139" and "Seamaster"; words split as the storefront's search splits them,
 * sizes such as "4.5" kept whole), a number also finds the product with that id, and "#15" finds product 15 alone.
 */
function adminSearchCondition(search: string): SQL | undefined {
  const id = productIdSearched(search);
  if (id !== null) return sql`${product.id} = ${id}`;
  const words = queryWords(search);
  if (words.length === 0) return undefined;
  const query = everyWordStartsQuery(words);
  const matches = sql`${product.searchVector} @@ to_tsquery('simple', ${query})`;
  const searchedId = idSearched(search);
  return searchedId === null ? matches : sql`(${product.id} = ${searchedId} or ${matches})`;
}

/** The product id a search of digits alone names ("15"): that product comes before the others it finds by its words. */
function idSearched(search: string): number | null {
  return /^\d{1,9}$/.test(search.trim()) ? Number(search.trim()) : null;
}

/** One page of the admin's product table with its filters and sort, and the number of matches. */
export async function listAdminProducts(db: Db, input: AdminProductListQuery, imageUrl: ImageUrl): Promise<AdminProductPage> {
  const conditions: SQL[] = [];
  const searchCondition = input.search ? adminSearchCondition(input.search) : undefined;
  if (searchCondition) conditions.push(searchCondition);
  if (input.categoryId) conditions.push(eq(product.categoryId, input.categoryId));
  if (input.manufacturerId) conditions.push(eq(product.manufacturerId, input.manufacturerId));
  if (input.wsStatus) conditions.push(eq(product.wsStatus, input.wsStatus));
  if (input.ebayStatus) conditions.push(eq(product.ebayStatus, input.ebayStatus));
  if (input.itemType) {
    conditions.push(
      sql`exists (select 1 from ${productDescription} where ${productDescription.productId} = ${product.id} and ${productDescription.itemType} = ${input.itemType})`,
    );
  }
  if (input.stock === "in") conditions.push(gt(product.stock, 0));
  if (input.stock === "out") conditions.push(eq(product.stock, 0));
  if (input.stock === "low") conditions.push(and(gt(product.stock, 0), lte(product.stock, LOW_STOCK))!);
  if (input.published === "draft") conditions.push(isNull(product.publishedAt));
  if (input.published === "published") conditions.push(isNotNull(product.publishedAt));
  const where = conditions.length ? and(...conditions) : undefined;

  const column = sortColumns[input.sort];
  const direction = input.direction === "asc" ? asc : desc;
  // The id breaks ties so that pages never overlap or skip a row.
  const orderBy = input.sort === "id" ? [direction(product.id)] : [direction(column), direction(product.id)];

  // Two steps: the page's ids first, from the product table and its indexes alone, then the names for those rows.
  // Joining before the limit made PostgreSQL sort the whole catalogue. A search is materialised before it is sorted:
  // otherwise the planner walks a sort index hoping to meet matches early, which is slow when they sort late.
  const offset = (input.page - 1) * input.pageSize;
  // "15" finds product 15 first, then the products whose words start with 15, in the table's order.
  const searchedId = input.search ? idSearched(input.search) : null;
  const idFirst = searchedId === null ? sql`` : sql`(id = ${searchedId}) desc, `;
  const idsQuery = searchCondition
    ? rawRows<{ id: number }>(
        db,
        sql`with matches as materialized (select ${product.id} as id, ${column} as sort_key from ${product} where ${where})
            select id from matches order by ${idFirst}sort_key ${sql.raw(input.direction)}, id ${sql.raw(input.direction)}
            limit ${input.pageSize} offset ${offset}`,
      )
    : db.select({ id: product.id }).from(product).where(where).orderBy(...orderBy).limit(input.pageSize).offset(offset);
  const [pageIds, [total]] = await Promise.all([idsQuery, db.select({ value: count() }).from(product).where(where)]);
  const ids = pageIds.map((row) => Number(row.id));
  const found = ids.length
    ? await withProductNames(
        db
          .select({
            ...columnsOf(product, "id", "name", "price", "stock", "wsStatus", "ebayStatus", "publishedAt", "isBulk", "createdAt", "updatedAt"),
            manufacturer: productManufacturer.name,
            category: productCategory.name,
            itemType: productDescription.itemType,
          })
          .from(product)
          .$dynamic(),
      )
        .where(inArray(product.id, ids))
    : [];
  const byId = new Map(found.map((row) => [row.id, row]));
  const rows = ids.map((id) => byId.get(id)).filter((row) => row !== undefined);
  return pageOf(
    rows.map((row) => ({ ...row, itemType: row.itemType ?? null, image: imageUrl(productImageKey(row.id)) })),
    total?.value ?? 0,
    input,
  );
}

// ---------------------------------------------------------------------------------------------------------------
// One product
// ---------------------------------------------------------------------------------------------------------------

export async function getAdminProduct(db: Db, id: number): Promise<AdminProduct> {
  const [row] = await db
    .select({
      ...columnsOf(product, "id", "name", "price", "ebayPrice", "shippingFee", "stock", "isBulk", "categoryId", "manufacturerId", "countryId", "wsStatus", "ebayStatus", "publishedAt", "createdAt", "updatedAt"),
      ...classificationColumns,
      ...descriptionTextColumns,
    })
    .from(product)
    .leftJoin(productDescription, eq(productDescription.productId, product.id))
    .where(eq(product.id, id));
  if (!row) throw new AppError("NOT_FOUND", `Product ${id} does not exist.`);
  const description = Object.fromEntries(descriptionTextFields.map((field) => [field, row[field] ?? null])) as Record<
    DescriptionTextField,
    string | null
  >;
  return {
    ...row,
    ...description,
    ...classificationOf(row),
  };
}

async function namesFor(tx: Db, values: Pick<ProductFormValues, "categoryId" | "manufacturerId" | "countryId">) {
  const [[category], [manufacturer]] = await Promise.all([
    tx.select({ name: productCategory.name }).from(productCategory).where(eq(productCategory.id, values.categoryId)),
    tx.select({ name: productManufacturer.name }).from(productManufacturer).where(eq(productManufacturer.id, values.manufacturerId)),
  ]);
  if (!category) throw new AppError("BAD_REQUEST", `Category ${values.categoryId} does not exist.`);
  if (!manufacturer) throw new AppError("BAD_REQUEST", `Manufacturer ${values.manufacturerId} does not exist.`);
  if (values.countryId !== null) {
    const [found] = await tx.select({ id: country.id }).from(country).where(eq(country.id, values.countryId));
    if (!found) throw new AppError("BAD_REQUEST", `Country ${values.countryId} does not exist.`);
  }
  return { category: category.name, manufacturer: manufacturer.name };
}

function productColumns(values: ProductFormValues | CreateProductValues, names: { category: string; manufacturer: string }) {
  return {
    name: values.name,
    price: new Decimal(values.price),
    ebayPrice: values.ebayPrice ? new Decimal(values.ebayPrice) : null,
    shippingFee: values.shippingFee ? new Decimal(values.shippingFee) : null,
    isBulk: values.isBulk,
    categoryId: values.categoryId,
    manufacturerId: values.manufacturerId,
    countryId: values.countryId,
    // Search runs over this text; it is rewritten with every change of a field it contains.
    searchText: buildSearchText({
      name: values.name,
      manufacturer: names.manufacturer,
      category: names.category,
      caliber: values.caliber,
      itemType: values.itemType,
      description: values,
    }),
  };
}

function descriptionValues(values: ProductFormValues | CreateProductValues) {
  return {
    caliber: values.caliber,
    state: values.state,
    itemType: values.itemType,
    gender: values.gender,
    ...Object.fromEntries(descriptionTextFields.map((field) => [field, values[field] ?? null])),
  } as Pick<ProductFormValues, "caliber" | "state" | "itemType" | "gender"> & Record<DescriptionTextField, string | null>;
}

/**
 * A product and its description, as a draft (on no channel; a template's placeholders may still be in it), with its
 * opening stock if staff gave one, all in one transaction: stock arrives through the ledger or a purchase in a box.
 */
export async function createProduct(db: Db, values: CreateProductValues, userId: string): Promise<{ id: number }> {
  return db.transaction(async (tx) => {
    const { openingStock, ...fields } = values;
    const names = await namesFor(tx, fields);
    const [row] = await tx
      .insert(product)
      // A draft, on no channel whatever the caller's values say, until staff publish it.
      .values({ ...productColumns(fields, names), wsStatus: "OFFLINE", ebayStatus: "OFFLINE", stock: 0, publishedAt: null })
      .returning({ id: product.id });
    const id = row!.id;
    await tx.insert(productDescription).values({ productId: id, ...descriptionValues(fields) });
    await catalogueChanged(tx, { productIds: [id] });
    await logProductChange(tx, id, {
      userId,
      newState: { id, ...fields, wsStatus: "OFFLINE", ebayStatus: "OFFLINE", publishedAt: null },
      description: `Product ${id} created as a draft: ${fields.name}`,
    });
    if (openingStock) await bookOpeningStock(tx, id, openingStock, userId);
    return { id };
  });
}

export async function updateProduct(db: Db, id: number, values: ProductFormValues, userId: string): Promise<AdminProduct> {
  await db.transaction(async (tx) => {
    await lockExistingRow(tx, product, id, { id: product.id }, "Product");
    const before = await getAdminProduct(tx, id);
    const online = values.wsStatus === "ONLINE" || values.ebayStatus === "ONLINE";
    if (online && before.publishedAt === null) {
      throw new AppError("PRECONDITION_FAILED", "A draft is on no channel: publish it to put it on the web shop or eBay.");
    }
    if (online) assertPlaceholdersFilled(values);
    const names = await namesFor(tx, values);
    await tx.update(product).set({ ...productColumns(values, names), wsStatus: values.wsStatus, ebayStatus: values.ebayStatus }).where(eq(product.id, id));
    // The stock's value and sell-through per category follow the product to its new one.
    await moveHoldings(tx, [{ productId: id, from: before.categoryId, to: values.categoryId }]);
    const description = descriptionValues(values);
    await tx
      .insert(productDescription)
      .values({ productId: id, ...description })
      .onConflictDoUpdate({ target: productDescription.productId, set: description });
    await catalogueChanged(tx, { productIds: [id] });
    const changed = changedFields(before, values);
    // A listed product's eBay price follows its prices: the push revises the listing (one revision, counted).
    if (changed.includes("price") || changed.includes("ebayPrice")) await requestQuantityPush(tx, id);
    await logProductChange(tx, id, {
      userId,
      previousState: Object.fromEntries(changed.map((field) => [field, before[field]])),
      newState: Object.fromEntries(changed.map((field) => [field, values[field]])),
      description: changed.length ? `Product ${id} changed: ${changed.join(", ")}` : `Product ${id} saved without changes`,
    });
  });
  return getAdminProduct(db, id);
}

/** The form fields whose value differs, comparing amounts as numbers and empty text as null. */
function changedFields(before: AdminProduct, after: ProductFormValues): (keyof ProductFormValues)[] {
  const normal = (value: unknown) => {
    if (value instanceof Decimal) return value.toFixed(2);
    if (value === undefined || value === "") return null;
    if (typeof value === "string" && /^\d+(\.\d+)?$/.test(value)) return new Decimal(value).toFixed(2);
    return value;
  };
  return (Object.keys(after) as (keyof ProductFormValues)[]).filter((field) => normal(before[field]) !== normal(after[field]));
}

// ---------------------------------------------------------------------------------------------------------------
// Form choices
// ---------------------------------------------------------------------------------------------------------------

/** Categories and manufacturers as "Parent › Child" for the selects, the countries, where each maker is based, and the select options. */
export async function productFormChoices(db: Db): Promise<ProductFormChoices> {
  const [categories, manufacturers, countries, options] = await Promise.all([
    db.select({ id: productCategory.id, name: productCategory.name, parentId: productCategory.parentId, isParent: productCategory.isParent }).from(productCategory),
    db
      .select({ id: productManufacturer.id, name: productManufacturer.name, parentId: productManufacturer.parentId, isParent: productManufacturer.isParent, countryId: productManufacturer.countryId })
      .from(productManufacturer),
    db.select({ id: country.id, label: country.name }).from(country).orderBy(asc(country.name)),
    db.select({ selectRow: productSelectOptions.selectRow, optionText: productSelectOptions.optionText }).from(productSelectOptions).orderBy(asc(productSelectOptions.id)),
  ]);
  const selectOptions: ProductFormChoices["selectOptions"] = {};
  for (const option of options) {
    if (!(descriptionTextFields as readonly string[]).includes(option.selectRow)) continue;
    const field = option.selectRow as DescriptionTextField;
    (selectOptions[field] ??= []).push(option.optionText);
  }
  const makerCountries = Object.fromEntries(manufacturers.flatMap((maker) => (maker.countryId === null ? [] : [[maker.id, maker.countryId]])));
  return { categories: treeChoices(categories), manufacturers: treeChoices(manufacturers), countries, makerCountries, selectOptions };
}

/** The entries products are filed under (not the grouping parents), labelled with their path. */
function treeChoices(rows: { id: number; name: string; parentId: number | null; isParent: boolean }[]): Choice[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  const path = (row: { name: string; parentId: number | null }): string => {
    const parent = row.parentId === null ? undefined : byId.get(row.parentId);
    return parent ? `${path(parent)} › ${row.name}` : row.name;
  };
  return rows
    .filter((row) => !row.isParent)
    .map((row) => ({ id: row.id, label: path(row) }))
    .sort((a, b) => a.label.localeCompare(b.label));
}
