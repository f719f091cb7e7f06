import { conditionIds } from "@/server/integrations/marketplace/ebay-taxonomy";
import { sandboxCategories, sandboxCategoryAspects, sandboxCategoryTrees } from "@/server/integrations/marketplace/sandbox-taxonomy";
import type { ProviderAnswer, ReceivedRequest } from "./provider-server";

/**
 * eBay's Taxonomy API (getDefaultCategoryTreeId, getItemAspectsForCategory, getCategorySubtree) and the Metadata
 * API's getItemConditionPolicies in eBay's JSON, for the eBay stand-in: the sandbox marketplace's categories, with
 * the tree version a test sets. Both take the application token; null for a path that is neither.
 */
export const taxonomyStandIn = { treeVersion: "131" };

const idOf = Object.fromEntries(Object.entries(conditionIds).map(([id, condition]) => [condition, id]));

export function isTaxonomyPath(path: string): boolean {
  return path.startsWith("/commerce/taxonomy/v1/") || path.startsWith("/sell/metadata/v1/");
}

export function taxonomyAnswer(request: ReceivedRequest): ProviderAnswer | null {
  const url = { pathname: request.path, searchParams: request.query };
  const notFound = (message: string): ProviderAnswer => ({ status: 404, body: { errors: [{ errorId: 62004, domain: "API_TAXONOMY", category: "REQUEST", message }], warnings: [] } });
  if (request.method !== "GET") return null;
  if (url.pathname === "/commerce/taxonomy/v1/get_default_category_tree_id") {
    const tree = sandboxCategoryTrees[url.searchParams.get("marketplace_id") as keyof typeof sandboxCategoryTrees];
    if (!tree) return { status: 400, body: { errors: [{ errorId: 62002, domain: "API_TAXONOMY", category: "REQUEST", message: "The marketplace_id is invalid." }] } };
    return { status: 200, body: { categoryTreeId: tree.treeId, categoryTreeVersion: taxonomyStandIn.treeVersion } };
  }
  const treeMatch = /^\/commerce\/taxonomy\/v1\/category_tree\/([^/]+)\/(get_item_aspects_for_category|get_category_subtree)$/.exec(url.pathname);
  if (treeMatch) {
    const categoryId = url.searchParams.get("category_id") ?? "";
    if (!sandboxCategories[categoryId]) return notFound(`The category ${categoryId} does not exist in the tree.`);
    const { categoryName, aspects } = sandboxCategoryAspects(categoryId);
    if (treeMatch[2] === "get_category_subtree") {
      return { status: 200, body: { categoryTreeId: treeMatch[1], categoryTreeVersion: taxonomyStandIn.treeVersion, categorySubtreeNode: { category: { categoryId, categoryName }, leafCategoryTreeNode: true } } };
    }
    return {
      status: 200,
      body: {
        aspects: aspects.map((aspect) => ({
          localizedAspectName: aspect.name,
          aspectConstraint: {
            aspectDataType: "STRING",
            aspectEnabledForVariations: false,
            aspectMode: aspect.mode,
            aspectRequired: aspect.required,
            aspectUsage: aspect.usage,
            itemToAspectCardinality: aspect.multi ? "MULTI" : "SINGLE",
            ...(aspect.maxLength ? { aspectMaxLength: aspect.maxLength } : {}),
          },
          ...(aspect.values.length ? { aspectValues: aspect.values.map((localizedValue) => ({ localizedValue })) } : {}),
        })),
      },
    };
  }
  const policyMatch = /^\/sell\/metadata\/v1\/marketplace\/([^/]+)\/get_item_condition_policies$/.exec(url.pathname);
  if (policyMatch) {
    const wanted = /^categoryIds:\{([\d|]+)\}$/.exec(url.searchParams.get("filter") ?? "")?.[1]?.split("|") ?? Object.keys(sandboxCategories);
    const known = wanted.filter((categoryId) => sandboxCategories[categoryId]);
    // eBay answers 204 without a body when no category of the filter has a policy.
    if (known.length === 0) return { status: 204 };
    return {
      status: 200,
      body: {
        itemConditionPolicies: known.map((categoryId) => ({
          categoryId,
          categoryTreeId: policyMatch[1] === "EBAY_DE" ? "77" : "146",
          itemConditionRequired: true,
          itemConditions: [
            ...sandboxCategories[categoryId]!.conditions.map((condition) => ({ conditionId: idOf[condition], conditionDescription: condition })),
            // A refurbished grade only approved sellers may use.
            { conditionId: "2000", conditionDescription: "Certified - Refurbished", usage: "RESTRICTED" },
          ],
        })),
      },
    };
  }
  return null;
}
