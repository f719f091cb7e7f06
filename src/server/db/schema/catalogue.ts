import { relations, sql, type SQL } from "drizzle-orm";
import {
  type AnyPgColumn,
  boolean,
  check,
  customType,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { money, timestamps } from "./columns";
import { discount } from "./discounts";
import { caliber, gender, itemType, listingStatus, productState, restockStatus } from "./enums";
import { country } from "./shipping";

const tsvector = customType<{ data: string }>({
  dataType() {
    return "tsvector";
  },
});

/** The free-text description fields, shared by a product's description and a product template. */
const descriptionTextColumns = () => ({
  condition: text(),
  movement: text(),
  dimensions: text(),
  serialNumber: text(),
  dialHands: text(),
  crystal: text(),
  additional: text(),
  additional2: text(),
  additional3: text(),
  bezel: text(),
  crown: text(),
  language: text(),
  braceletStrap: text(),
});

export const productCategory = pgTable(
  "product_category",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    name: text().notNull(),
    isParent: boolean().notNull().default(false),
    parentId: integer().references((): AnyPgColumn => productCategory.id, { onDelete: "set null" }),
    orderWeight: integer().notNull().default(0),
    /** Another category whose products are shown as related (a crown category relates to crown sets, say). */
    relatedTo: integer().references((): AnyPgColumn => productCategory.id, { onDelete: "set null" }),
    ebayMainCategory: text(),
    ebayShopCategory: text(),
    ...timestamps,
  },
  (t) => [index("product_category_parent_idx").on(t.parentId, t.orderWeight)],
);

export const productManufacturer = pgTable(
  "product_manufacturer",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    name: text().notNull(),
    isParent: boolean().notNull().default(false),
    parentId: integer().references((): AnyPgColumn => productManufacturer.id, { onDelete: "set null" }),
    orderWeight: integer().notNull().default(0),
    ebayShopManufacturer: text(),
    /**
     * Where the maker is based, where the shop knows it: the country of origin its products are given in the product
     * form until staff choose another, and the one customs are told for a product whose own is empty.
     */
    countryId: integer().references(() => country.id, { onDelete: "set null" }),
    ...timestamps,
  },
  (t) => [index("product_manufacturer_parent_idx").on(t.parentId, t.orderWeight)],
);

export const product = pgTable(
  "product",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    name: text().notNull(),
    price: money().notNull(),
    /** A fixed price on eBay; null: eBay's price is the list price with the shop-wide markup (marketplace/channel-price.ts). */
    ebayPrice: money(),
    shippingFee: money(),
    /** The sum of the product's stock ledger, kept in step in the transaction that writes a ledger row. */
    stock: integer().notNull().default(0),
    ebayStatus: listingStatus().notNull().default("OFFLINE"),
    wsStatus: listingStatus().notNull().default("ONLINE"),
    /**
     * When staff published the product; null while it is a draft. A draft is on no channel (the check below), so a
     * product made from a template with its placeholders unfilled never reaches the web shop or eBay. Staff's product
     * form makes drafts; a product written any other way (the seed, an import) is published as it is made.
     */
    publishedAt: timestamp({ withTimezone: true, mode: "date" }).defaultNow(),
    isBulk: boolean().notNull().default(false),
    categoryId: integer().references(() => productCategory.id, { onDelete: "set null" }),
    discountId: integer().references(() => discount.id, { onDelete: "set null" }),
    manufacturerId: integer().references(() => productManufacturer.id, { onDelete: "set null" }),
    countryId: integer().references(() => country.id, { onDelete: "set null" }),
    /**
     * Name, manufacturer, category, caliber and description words in one text, written by the catalogue service
     * whenever one of them changes; full-text and trigram search run over it without joins.
     */
    searchText: text().notNull().default(""),
    searchVector: tsvector().generatedAlwaysAs((): SQL => sql`to_tsvector('simple', ${product.searchText})`),
    ...timestamps,
  },
  (t) => [
    index("product_category_idx").on(t.categoryId),
    index("product_manufacturer_idx").on(t.manufacturerId),
    index("product_price_idx").on(t.price),
    // Ascending, read backwards for newest first: `.desc()` would build DESC NULLS LAST, which the listings'
    // `order by created_at desc, id desc` (NULLS FIRST) cannot use, so every listing sorted the whole catalogue.
    index("product_created_at_idx").on(t.createdAt, t.id),
    index("product_listing_idx").on(t.wsStatus, t.createdAt, t.id),
    // A product page's related pieces: a category's first few online, in stock first, newest first, from the index
    // alone instead of sorting its thousands of products (catalog/service.ts, relatedPieces).
    index("product_related_idx")
      .on(t.categoryId, sql`(${t.stock} > 0) desc`, sql`${t.createdAt} desc`, sql`${t.id} desc`)
      .where(sql`${t.wsStatus} = 'ONLINE'`),
    // The admin product table sorts by these, a page at a time, on the whole catalogue.
    index("product_name_idx").on(t.name, t.id),
    index("product_stock_idx").on(t.stock, t.id),
    index("product_updated_at_idx").on(t.updatedAt, t.id),
    index("product_search_vector_idx").using("gin", t.searchVector),
    index("product_search_trgm_idx").using("gin", sql`${t.searchText} gin_trgm_ops`),
    index("product_name_trgm_idx").using("gin", sql`${t.name} gin_trgm_ops`),
    // bookStock refuses to go below zero; this holds the rule for every other write too.
    check("product_stock_non_negative", sql`${t.stock} >= 0`),
    check("product_draft_offline", sql`${t.publishedAt} is not null or (${t.wsStatus} = 'OFFLINE' and ${t.ebayStatus} = 'OFFLINE')`),
  ],
);

/**
 * A row's product. Rows that are the shop's history (an order line, a ledger row, a purchase) keep their product:
 * `restrict` refuses to delete a product that has any. Rows that only serve the product (a cart line, a restock
 * request) go with it: `cascade`.
 */
export const productReference = (onDelete: "restrict" | "cascade") => integer().notNull().references(() => product.id, { onDelete });

/** The watchmaker's description of a product; one row per product. */
export const productDescription = pgTable(
  "product_description",
  {
    productId: integer()
      .primaryKey()
      .references(() => product.id, { onDelete: "cascade" }),
    caliber: caliber().notNull().default("UNKNOWN"),
    state: productState().notNull().default("UNKNOWN"),
    itemType: itemType().notNull().default("UNKNOWN"),
    gender: gender().notNull().default("UNKNOWN"),
    ...descriptionTextColumns(),
    ...timestamps,
  },
  (t) => [
    // The storefront's search reads the four classifications of every product it matches (for the filters and
    // their counts): from this index alone, without visiting the wide description rows.
    index("product_description_classification_idx").on(t.productId, t.caliber, t.state, t.itemType, t.gender),
    index("product_description_caliber_idx").on(t.caliber),
    index("product_description_state_idx").on(t.state),
    index("product_description_item_type_idx").on(t.itemType),
    index("product_description_gender_idx").on(t.gender),
  ],
);

/** The choices offered in the product form's select fields; `selectRow` names the field they belong to. */
export const productSelectOptions = pgTable(
  "product_select_options",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    optionText: text().notNull(),
    selectRow: text().notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex("product_select_options_row_text_unique").on(t.selectRow, t.optionText)],
);

/** A saved starting point for new products: product and description fields, all optional. */
export const productTemplate = pgTable("product_template", {
  id: integer().primaryKey().generatedByDefaultAsIdentity(),
  templateName: text().notNull(),
  templateDescription: text(),
  name: text(),
  price: money(),
  shippingFee: money(),
  isBulk: boolean().notNull().default(false),
  categoryId: integer().references(() => productCategory.id, { onDelete: "set null" }),
  manufacturerId: integer().references(() => productManufacturer.id, { onDelete: "set null" }),
  countryId: integer().references(() => country.id, { onDelete: "set null" }),
  caliber: caliber(),
  state: productState(),
  itemType: itemType(),
  gender: gender(),
  ...descriptionTextColumns(),
  ...timestamps,
});

export const productRestockManager = pgTable(
  "product_restock_manager",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    productId: productReference("cascade"),
    status: restockStatus().notNull().default("PENDING"),
    ...timestamps,
  },
  (t) => [uniqueIndex("product_restock_manager_product_unique").on(t.productId), index("product_restock_manager_status_idx").on(t.status)],
);

export const productCategoryRelations = relations(productCategory, ({ one, many }) => ({
  parent: one(productCategory, { fields: [productCategory.parentId], references: [productCategory.id], relationName: "categoryTree" }),
  children: many(productCategory, { relationName: "categoryTree" }),
  products: many(product),
}));

export const productManufacturerRelations = relations(productManufacturer, ({ one, many }) => ({
  parent: one(productManufacturer, {
    fields: [productManufacturer.parentId],
    references: [productManufacturer.id],
    relationName: "manufacturerTree",
  }),
  children: many(productManufacturer, { relationName: "manufacturerTree" }),
  products: many(product),
}));

export const productRelations = relations(product, ({ one }) => ({
  category: one(productCategory, { fields: [product.categoryId], references: [productCategory.id] }),
  manufacturer: one(productManufacturer, { fields: [product.manufacturerId], references: [productManufacturer.id] }),
  discount: one(discount, { fields: [product.discountId], references: [discount.id] }),
  country: one(country, { fields: [product.countryId], references: [country.id] }),
  description: one(productDescription, { fields: [product.id], references: [productDescription.productId] }),
}));

export const productDescriptionRelations = relations(productDescription, ({ one }) => ({
  product: one(product, { fields: [productDescription.productId], references: [product.id] }),
}));

export const productRestockManagerRelations = relations(productRestockManager, ({ one }) => ({
  product: one(product, { fields: [productRestockManager.productId], references: [product.id] }),
}));
