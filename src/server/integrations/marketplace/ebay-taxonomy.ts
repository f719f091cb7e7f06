import { z } from "zod";
import type { MarketplaceAspect, MarketplaceCategoryAspects, MarketplaceCondition, MarketplaceConditionPolicy } from "./port";

/*
 * eBay's Taxonomy API (category trees and their item specifics) and the Metadata API's item condition policies, read
 * into the port's shapes (PROVIDERS.md section 12). Both are called with the application token: they describe eBay,
 * not the seller.
 */

export const taxonomyPath = "/commerce/taxonomy/v1";
export const metadataPath = "/sell/metadata/v1";
/** eBay's most category ids per getItemConditionPolicies filter. */
export const conditionPolicyCategoriesPerCall = 50;

/**
 * The condition ids of eBay's "Item condition ID and name values" table with the ConditionEnum value of each, for the
 * conditions the port knows; ids not here (the refurbished grades only approved sellers may use, trading-card grades)
 * are left out of a category's allowed conditions.
 */
export const conditionIds: Record<string, MarketplaceCondition> = {
  "1000": "NEW",
  "1500": "NEW_OTHER",
  "1750": "NEW_WITH_DEFECTS",
  "2500": "SELLER_REFURBISHED",
  "3000": "USED_EXCELLENT",
  "4000": "USED_VERY_GOOD",
  "5000": "USED_GOOD",
  "6000": "USED_ACCEPTABLE",
  "7000": "FOR_PARTS_OR_NOT_WORKING",
};

export const defaultTreeAnswer = z.object({ categoryTreeId: z.string().min(1), categoryTreeVersion: z.string().min(1) });

const aspectAnswer = z.object({
  localizedAspectName: z.string(),
  aspectConstraint: z
    .object({
      aspectRequired: z.boolean().optional(),
      aspectUsage: z.string().optional(),
      aspectMode: z.string().optional(),
      itemToAspectCardinality: z.string().optional(),
      aspectMaxLength: z.coerce.number().optional(),
    })
    .optional(),
  aspectValues: z.array(z.object({ localizedValue: z.string() })).optional(),
});

/** getItemAspectsForCategory; a category without item specifics answers without `aspects`. */
export const aspectsAnswer = z.object({ aspects: z.array(aspectAnswer).optional() });

/** getCategorySubtree of a leaf: the leaf alone, with its name. */
export const subtreeAnswer = z.object({
  categorySubtreeNode: z.object({ category: z.object({ categoryId: z.string(), categoryName: z.string() }) }).optional(),
});

export const conditionPoliciesAnswer = z.object({
  itemConditionPolicies: z
    .array(
      z.object({
        categoryId: z.string(),
        itemConditionRequired: z.boolean().optional(),
        itemConditions: z.array(z.object({ conditionId: z.coerce.string(), usage: z.string().optional() })).optional(),
      }),
    )
    .optional(),
});

export function toCategoryAspects(aspects: z.infer<typeof aspectsAnswer>, subtree: z.infer<typeof subtreeAnswer>): MarketplaceCategoryAspects {
  return {
    categoryName: subtree.categorySubtreeNode?.category.categoryName ?? null,
    aspects: (aspects.aspects ?? []).map(
      (aspect): MarketplaceAspect => ({
        name: aspect.localizedAspectName,
        required: aspect.aspectConstraint?.aspectRequired === true,
        usage: aspect.aspectConstraint?.aspectUsage === "OPTIONAL" ? "OPTIONAL" : "RECOMMENDED",
        mode: aspect.aspectConstraint?.aspectMode === "SELECTION_ONLY" ? "SELECTION_ONLY" : "FREE_TEXT",
        values: (aspect.aspectValues ?? []).map((value) => value.localizedValue),
        multi: aspect.aspectConstraint?.itemToAspectCardinality === "MULTI",
        maxLength: aspect.aspectConstraint?.aspectMaxLength ?? null,
      }),
    ),
  };
}

export function toConditionPolicies(answer: z.infer<typeof conditionPoliciesAnswer>): MarketplaceConditionPolicy[] {
  return (answer.itemConditionPolicies ?? []).map((policy) => ({
    categoryId: policy.categoryId,
    conditionRequired: policy.itemConditionRequired === true,
    // RESTRICTED conditions are for sellers eBay approved (certified refurbished); the shop is not one of them.
    conditions: (policy.itemConditions ?? []).flatMap((condition) => {
      const known = conditionIds[condition.conditionId];
      return known && condition.usage !== "RESTRICTED" ? [known] : [];
    }),
  }));
}
