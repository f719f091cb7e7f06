import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import type { MarketplaceId } from "@/lib/enums";
import type { Db } from "@/server/db/client";
import { marketplaceCategoryRules, marketplaceCategoryTree } from "@/server/db/schema";
import { marketplaceConditions, type MarketplaceAspect, type MarketplaceCondition, type MarketplacePort } from "@/server/integrations/marketplace/port";

/*
 * What eBay requires of a listing in each of its categories, cached per version of the site's category tree: the
 * item specifics (Taxonomy API) and the allowed conditions (Metadata API). The tree's version is asked at most once a
 * day; a category is fetched again when the version it was fetched for is no longer the tree's.
 */

/** How long the tree's version is trusted before eBay is asked again. */
export const TREE_CHECK_MS = 24 * 60 * 60_000;

export type CategoryRules = {
  categoryId: string;
  /** eBay's name of the category, for the messages staff read. */
  categoryName: string | null;
  aspects: MarketplaceAspect[];
  /** The conditions the category allows; null when it has no condition policy. */
  conditions: MarketplaceCondition[] | null;
};

const storedAspects = z.array(
  z.object({
    name: z.string(),
    required: z.boolean(),
    usage: z.enum(["RECOMMENDED", "OPTIONAL"]),
    mode: z.enum(["SELECTION_ONLY", "FREE_TEXT"]),
    values: z.array(z.string()),
    multi: z.boolean(),
    maxLength: z.number().nullable(),
  }),
);
const storedConditions = z.array(z.enum(marketplaceConditions)).nullable();

/** The site's category tree: the stored one while checked within a day, else eBay's current one (and stored). */
async function currentTree(db: Db, port: MarketplacePort, marketplaceId: MarketplaceId, now: Date) {
  const [stored] = await db.select().from(marketplaceCategoryTree).where(eq(marketplaceCategoryTree.marketplaceId, marketplaceId));
  if (stored && now.getTime() - stored.checkedAt.getTime() < TREE_CHECK_MS) return { treeId: stored.treeId, version: stored.treeVersion };
  const tree = await port.getCategoryTree(marketplaceId);
  const row = { treeId: tree.treeId, treeVersion: tree.version, checkedAt: now };
  await db.insert(marketplaceCategoryTree).values({ marketplaceId, ...row }).onConflictDoUpdate({ target: marketplaceCategoryTree.marketplaceId, set: row });
  return tree;
}

/**
 * The rules of eBay categories on a marketplace site, by category id: from the cache when fetched for the tree's
 * current version, else from eBay (and cached). Throws the port's MarketplaceError when eBay cannot be asked.
 */
export async function readCategoryRules(
  db: Db,
  port: MarketplacePort,
  marketplaceId: MarketplaceId,
  categoryIds: readonly string[],
  now = new Date(),
): Promise<Map<string, CategoryRules>> {
  const wanted = [...new Set(categoryIds)];
  const rules = new Map<string, CategoryRules>();
  if (wanted.length === 0) return rules;
  const tree = await currentTree(db, port, marketplaceId, now);
  const cached = await db
    .select()
    .from(marketplaceCategoryRules)
    .where(and(eq(marketplaceCategoryRules.treeId, tree.treeId), inArray(marketplaceCategoryRules.categoryId, wanted)));
  for (const row of cached) {
    if (row.treeVersion !== tree.version) continue;
    const aspects = storedAspects.safeParse(row.aspects);
    const conditions = storedConditions.safeParse(row.conditions);
    // A row an older version of the shop wrote in another shape is fetched again.
    if (aspects.success && conditions.success) rules.set(row.categoryId, { categoryId: row.categoryId, categoryName: row.categoryName, aspects: aspects.data, conditions: conditions.data });
  }

  const missing = wanted.filter((categoryId) => !rules.has(categoryId));
  if (missing.length === 0) return rules;
  const policies = new Map((await port.getConditionPolicies(marketplaceId, missing)).map((policy) => [policy.categoryId, policy]));
  for (const categoryId of missing) {
    const { categoryName, aspects } = await port.getCategoryAspects(tree.treeId, categoryId);
    const policy = policies.get(categoryId);
    const fetched: CategoryRules = { categoryId, categoryName, aspects, conditions: policy ? policy.conditions : null };
    const row = { treeVersion: tree.version, categoryName, aspects, conditions: fetched.conditions, fetchedAt: now };
    await db
      .insert(marketplaceCategoryRules)
      .values({ treeId: tree.treeId, categoryId, ...row })
      .onConflictDoUpdate({ target: [marketplaceCategoryRules.treeId, marketplaceCategoryRules.categoryId], set: row });
    rules.set(categoryId, fetched);
  }
  return rules;
}

/** The rules of one category (null without a category, which the listing's own checks refuse). */
export async function rulesOfCategory(db: Db, port: MarketplacePort, marketplaceId: MarketplaceId, categoryId: string | null): Promise<CategoryRules | null> {
  if (!categoryId || !/^\d+$/.test(categoryId)) return null;
  return (await readCategoryRules(db, port, marketplaceId, [categoryId])).get(categoryId) ?? null;
}
