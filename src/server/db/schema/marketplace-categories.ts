import { jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { timestamps } from "./columns";
import { marketplaceId } from "./enums";

/*
 * What eBay says a listing in each of its categories needs (the Taxonomy API's item specifics and the Metadata API's
 * allowed conditions), kept per version of the site's category tree: publishing checks a product against it before
 * calling eBay, and a new tree version fetches it again.
 */

/** Each marketplace site's default category tree as last asked, and when: the version is asked again once a day. */
export const marketplaceCategoryTree = pgTable("marketplace_category_tree", {
  marketplaceId: marketplaceId().primaryKey(),
  treeId: text().notNull(),
  treeVersion: text().notNull(),
  checkedAt: timestamp({ withTimezone: true, mode: "date" }).notNull(),
  ...timestamps,
});

/**
 * One eBay category's rules in a version of its tree: `aspects` as the port's MarketplaceAspect list, `conditions`
 * the allowed ConditionEnum values, null when the category has no condition policy (any condition goes).
 */
export const marketplaceCategoryRules = pgTable(
  "marketplace_category_rules",
  {
    treeId: text().notNull(),
    categoryId: text().notNull(),
    treeVersion: text().notNull(),
    categoryName: text(),
    aspects: jsonb().notNull(),
    conditions: jsonb(),
    fetchedAt: timestamp({ withTimezone: true, mode: "date" }).notNull(),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.treeId, t.categoryId] })],
);
