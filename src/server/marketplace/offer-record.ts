import "server-only";
import type { Decimal } from "decimal.js";
import { inArray } from "drizzle-orm";
import type { MarketplaceId } from "@/lib/enums";
import { attributeLabel, attributeNames, descriptionFieldLabels } from "@/lib/labels";
import { classificationOf, type ProductClassification } from "@/server/catalog/classification";
import { classificationColumns, columnsOf, descriptionTextColumns } from "@/server/catalog/columns";
import { productForSale, type ProductForSale } from "@/server/catalog/product-for-sale";
import { withProductNames } from "@/server/catalog/product-names";
import { descriptionFields, type DescriptionField } from "@/server/catalog/schemas";
import { shopUrl } from "@/server/config/shop-url";
import type { Db } from "@/server/db/client";
import { product, productCategory, productManufacturer } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { escapeHtml } from "@/server/integrations/mail/layout";
import type { MarketplaceItem, MarketplaceOfferRecord } from "@/server/integrations/marketplace/port";
import { listProductImageObjects, type StoragePort } from "@/server/integrations/storage/port";
import { getStorage } from "@/server/integrations/storage/storage";
import type { CategoryRules } from "./category-rules";
import { notInStockReason } from "./schemas";
import { itemSpecifics } from "./item-specifics";
import { listingConditionFor } from "./listing-condition";

/*
 * What the marketplace is told about a product: the inventory item (what the piece is) and the offer (its price,
 * quantity and categories), always whole, since eBay replaces a stored record with what is sent. Built from the
 * product, its description, its category's and manufacturer's eBay mappings and its pictures, as the product page
 * shows them.
 */

/** The shop's SKU of a product on the marketplace. */
export function productSku(productId: number): string {
  return `BC-${productId}`;
}

/** eBay's longest title. */
export const TITLE_LENGTH = 80;
/** eBay's most pictures per item. */
const PICTURE_LIMIT = 24;
/** How many parents up a category's eBay mapping is looked for; the tree is a few levels deep, this only stops a loop. */
const CATEGORY_DEPTH = 10;

/** Everything a listing is built from. */
export type OfferSource = ProductForSale & ProductClassification & {
  description: Partial<Record<DescriptionField, string | null>>;
  manufacturer: string | null;
  /** The manufacturer's eBay shop category. */
  shopManufacturer: string | null;
  category: string | null;
  /** The eBay category of the product's category or, when it has none, of its nearest parent that has one. */
  ebayCategoryId: string | null;
  /** The eBay shop category, looked for the same way. */
  shopCategory: string | null;
  /** Public addresses of the product's pictures, first picture first. */
  imageUrls: string[];
  /** False while the product is a draft, which the catalogue keeps off every channel. */
  published: boolean;
};

/** A product's pictures as public addresses, first picture first. */
export type ProductPictures = (productId: number) => Promise<string[]>;

/**
 * The pictures in a storage, as absolute addresses: the marketplace fetches them from outside, and the sandbox
 * storage's addresses are paths on the shop.
 */
export function picturesIn(storage: Pick<StoragePort, "list" | "publicUrl">, base: string): ProductPictures {
  return async (productId) => (await listProductImageObjects(storage, productId)).map((object) => new URL(storage.publicUrl(object.key), `${base}/`).toString());
}

/** The shop's own pictures, where the storefront shows them from. */
export function shopProductPictures(): ProductPictures {
  return picturesIn(getStorage(), shopUrl());
}

type CategoryMapping = { parentId: number | null; ebayMainCategory: string | null; ebayShopCategory: string | null };

const filled = (value: string | null | undefined): string | null => {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
};

/** The products' listing sources by id; a product that does not exist is missing from the map. */
export async function readOfferSources(db: Db, productIds: readonly number[], pictures: ProductPictures): Promise<Map<number, OfferSource>> {
  if (productIds.length === 0) return new Map();
  const rows = await withProductNames(
    db
      .select({
        ...columnsOf(product, "id", "name", "price", "stock", "categoryId", "publishedAt"),
        ...classificationColumns,
        ...descriptionTextColumns,
        manufacturer: productManufacturer.name,
        shopManufacturer: productManufacturer.ebayShopManufacturer,
        category: productCategory.name,
        categoryParentId: productCategory.parentId,
        ebayMainCategory: productCategory.ebayMainCategory,
        ebayShopCategory: productCategory.ebayShopCategory,
      })
      .from(product)
      .$dynamic(),
  ).where(inArray(product.id, [...productIds]));

  const categories = new Map<number, CategoryMapping>();
  for (const row of rows) {
    if (row.categoryId !== null) {
      categories.set(row.categoryId, { parentId: row.categoryParentId, ebayMainCategory: row.ebayMainCategory, ebayShopCategory: row.ebayShopCategory });
    }
  }
  await readParentCategories(db, categories);
  const imageUrls = await Promise.all(rows.map((row) => pictures(row.id)));

  return new Map(
    rows.map((row, index) => {
      const description = Object.fromEntries(descriptionFields.map((field) => [field, row[field]])) as OfferSource["description"];
      const source: OfferSource = {
        ...productForSale(row),
        ...classificationOf(row),
        description,
        manufacturer: row.manufacturer,
        shopManufacturer: filled(row.shopManufacturer),
        category: row.category,
        ebayCategoryId: nearestMapping(categories, row.categoryId, "ebayMainCategory"),
        shopCategory: nearestMapping(categories, row.categoryId, "ebayShopCategory"),
        imageUrls: imageUrls[index]!,
        published: row.publishedAt !== null,
      };
      return [row.id, source] as const;
    }),
  );
}

/** Adds the parents of the categories whose mapping is not complete, a level per query. */
async function readParentCategories(db: Db, categories: Map<number, CategoryMapping>): Promise<void> {
  for (let level = 0; level < CATEGORY_DEPTH; level++) {
    const wanted = new Set<number>();
    for (const category of categories.values()) {
      const complete = filled(category.ebayMainCategory) && filled(category.ebayShopCategory);
      if (!complete && category.parentId !== null && !categories.has(category.parentId)) wanted.add(category.parentId);
    }
    if (wanted.size === 0) return;
    const parents = await db
      .select({ id: productCategory.id, ...columnsOf(productCategory, "parentId", "ebayMainCategory", "ebayShopCategory") })
      .from(productCategory)
      .where(inArray(productCategory.id, [...wanted]));
    for (const { id, ...mapping } of parents) categories.set(id, mapping);
    // A parent that no longer exists is not asked for again.
    for (const id of wanted) if (!categories.has(id)) categories.set(id, { parentId: null, ebayMainCategory: null, ebayShopCategory: null });
  }
}

function nearestMapping(categories: Map<number, CategoryMapping>, categoryId: number | null, field: "ebayMainCategory" | "ebayShopCategory"): string | null {
  let id = categoryId;
  for (let level = 0; id !== null && level <= CATEGORY_DEPTH; level++) {
    const category = categories.get(id);
    if (!category) return null;
    const value = filled(category[field]);
    if (value) return value;
    id = category.parentId;
  }
  return null;
}

/** One product's listing source; NOT_FOUND when there is no such product. */
export async function readOfferSource(db: Db, productId: number, pictures: ProductPictures): Promise<OfferSource> {
  const source = (await readOfferSources(db, [productId], pictures)).get(productId);
  if (!source) throw new AppError("NOT_FOUND", `Product ${productId} does not exist.`);
  return source;
}

// ---------------------------------------------------------------------------------------------------------------
// The listing
// ---------------------------------------------------------------------------------------------------------------

/**
 * Why the product cannot be on the marketplace, or null when it can: a first listing also needs a piece in stock,
 * while a listed product that sold out is revised with quantity 0 (eBay keeps it, out of stock). With its eBay
 * category's rules, also each required item specific it does not fill and a condition the category does not take,
 * all of them, so that staff fix them in one go.
 */
export function listingBlocker(source: OfferSource, purpose: "publish" | "revise", rules?: CategoryRules | null): string | null {
  // Checked before eBay is called: a draft listed there could not be recorded (the database keeps drafts OFFLINE).
  if (!source.published) return "A draft: publish the product in the shop first";
  if (!source.category) return "No category: an eBay category comes from the product's category";
  if (!source.ebayCategoryId) return `No eBay category for ${source.category}`;
  if (!/^\d+$/.test(source.ebayCategoryId)) return `The eBay category of ${source.category} is not a category number: ${source.ebayCategoryId}`;
  if (source.imageUrls.length === 0) return "No picture";
  if (source.price.lte(0)) return "No price";
  const problems = rules ? [...itemSpecifics(source, rules).missing, conditionOf(source, rules).blocker] : [];
  if (purpose === "publish" && source.stock <= 0) problems.push(notInStockReason);
  const found = problems.filter((problem): problem is string => !!problem);
  return found.length ? found.join("; ") : null;
}

/** The condition a product is listed in, checked against its category's allowed conditions when they are known. */
function conditionOf(source: OfferSource, rules: CategoryRules | null | undefined) {
  const categoryName = rules?.categoryName ?? source.category ?? `category ${source.ebayCategoryId}`;
  return listingConditionFor({ state: source.state, name: source.name, conditionText: source.description.condition ?? null }, rules?.conditions ?? null, categoryName);
}

export type Listing = { item: MarketplaceItem; offer: MarketplaceOfferRecord };

/**
 * The whole inventory item and offer of a product at its eBay price (channel-price.ts); PRECONDITION_FAILED with the blocker when it cannot be listed.
 * With its category's rules, item specifics are named and valued as eBay's category has them.
 */
export function buildListing(source: OfferSource, marketplaceId: MarketplaceId, price: Decimal, rules?: CategoryRules | null): Listing {
  const blocker = listingBlocker(source, "revise", rules);
  if (blocker) throw new AppError("PRECONDITION_FAILED", blocker);
  const sku = productSku(source.productId);
  const quantity = Math.max(source.stock, 0);
  const description = listingDescription(source);
  const condition = conditionOf(source, rules);
  return {
    item: {
      sku,
      marketplaceId,
      condition: condition.condition,
      conditionDescription: condition.description,
      title: listingTitle(source.name),
      description,
      aspects: itemSpecifics(source, rules).aspects,
      imageUrls: source.imageUrls.slice(0, PICTURE_LIMIT),
      quantity,
    },
    offer: {
      sku,
      marketplaceId,
      price,
      quantity,
      categoryId: source.ebayCategoryId!,
      storeCategoryNames: [source.shopCategory, source.shopManufacturer].filter((name): name is string => name !== null),
      listingDescription: description,
    },
  };
}

/** A description field as the product page shows it: trimmed, and not at all when empty or "N/A". */
function shown(value: string | null | undefined): string | null {
  const text = filled(value);
  return text && text !== "N/A" ? text : null;
}

/** The product's name on one line, cut at a word to eBay's 80 characters. */
export function listingTitle(name: string): string {
  const title = name.replace(/\s+/g, " ").trim();
  if (title.length <= TITLE_LENGTH) return title;
  const cut = title.slice(0, TITLE_LENGTH + 1);
  const lastSpace = cut.lastIndexOf(" ");
  return (lastSpace > TITLE_LENGTH / 2 ? cut.slice(0, lastSpace) : cut.slice(0, TITLE_LENGTH)).trim();
}

/** The product page's attributes and description fields, as HTML for the listing. */
export function listingDescription(source: OfferSource): string {
  const row = (name: string, value: string) => `<tr><th align="left" valign="top">${escapeHtml(name)}</th><td>${escapeHtml(value).replace(/\r?\n/g, "<br>")}</td></tr>`;
  const attributes = (["itemType", "caliber", "state", "gender"] as const)
    .filter((key) => source[key] !== "UNKNOWN")
    .map((key) => row(attributeNames[key], attributeLabel(key, source[key])));
  const brand = source.manufacturer ? [row("Brand", source.manufacturer)] : [];
  const fields = descriptionFields.flatMap((field) => {
    const value = shown(source.description[field]);
    return value ? [row(descriptionFieldLabels[field], value)] : [];
  });
  return [
    `<h1>${escapeHtml(source.name)}</h1>`,
    `<table>${[...brand, ...attributes].join("")}</table>`,
    ...(fields.length ? [`<h2>Description</h2>`, `<table>${fields.join("")}</table>`] : []),
  ].join("\n");
}
