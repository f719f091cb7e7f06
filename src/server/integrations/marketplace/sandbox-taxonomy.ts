import type { MarketplaceId } from "@/lib/enums";
import type { MarketplaceAspect, MarketplaceCategoryAspects, MarketplaceCategoryTree, MarketplaceCondition, MarketplaceConditionPolicy } from "./port";
import type { Refusal } from "./sandbox-records";

/*
 * The sandbox marketplace's categories: the item specifics and conditions of the eBay categories the shop lists in,
 * as eBay's Taxonomy and Metadata APIs describe them (PROVIDERS.md section 12: for wristwatches Brand, Type,
 * Department, Model and Movement are required), and eBay's refusal at publishOffer of a listing without them.
 */

/** The sandbox's category tree per site (eBay's tree ids of EBAY_NL and EBAY_DE) and its version. */
export const sandboxCategoryTrees: Record<MarketplaceId, MarketplaceCategoryTree> = {
  EBAY_NL: { treeId: "146", version: "131" },
  EBAY_DE: { treeId: "77", version: "131" },
};

const aspect = (name: string, options: Partial<Omit<MarketplaceAspect, "name">> = {}): MarketplaceAspect => ({
  name,
  required: false,
  usage: "RECOMMENDED",
  mode: "FREE_TEXT",
  values: [],
  multi: false,
  maxLength: 65,
  ...options,
});
const required = (name: string, options: Partial<Omit<MarketplaceAspect, "name">> = {}) => aspect(name, { required: true, ...options });

const departments = ["Men", "Women", "Unisex Adults", "Boys", "Girls", "Unisex Kids"];
const movements = ["Automatic", "Mechanical (Automatic)", "Mechanical (Hand-winding)", "Quartz", "Solar", "Kinetic", "Spring Drive", "Digital"];
const caseMaterials = ["Stainless Steel", "Gold Plated", "Gold Filled", "Yellow Gold", "Rose Gold", "White Gold", "Silver", "Titanium", "Chrome", "Brass", "Plastic"];
const partTypes = ["Movement", "Dial", "Hands", "Crown", "Stem", "Crystal", "Case", "Case Back", "Bezel", "Band", "Buckle", "Battery", "Balance", "Mainspring", "Gasket", "Other"];

type SandboxCategory = { name: string; aspects: MarketplaceAspect[]; conditions: MarketplaceCondition[] };

const watchConditions: MarketplaceCondition[] = ["NEW", "NEW_OTHER", "NEW_WITH_DEFECTS", "USED_EXCELLENT", "FOR_PARTS_OR_NOT_WORKING"];

/** The categories of the demo catalogue; any other category asks for a brand and takes new, used and for-parts pieces. */
export const sandboxCategories: Record<string, SandboxCategory> = {
  "31387": {
    name: "Wristwatches",
    conditions: watchConditions,
    aspects: [
      required("Brand"),
      required("Type", { mode: "SELECTION_ONLY", values: ["Wristwatch"] }),
      required("Department", { mode: "SELECTION_ONLY", values: departments }),
      required("Model"),
      required("Movement", { mode: "SELECTION_ONLY", values: movements }),
      aspect("Case Size"),
      aspect("Case Material", { values: caseMaterials }),
      aspect("Caliber"),
      aspect("Reference Number"),
      aspect("Features", { multi: true, values: ["Chronograph", "Date", "Day/Date", "Luminous Hands"] }),
      aspect("Band Material", { usage: "OPTIONAL" }),
    ],
  },
  "3937": {
    name: "Pocket Watches",
    conditions: watchConditions,
    aspects: [
      required("Brand"),
      required("Movement", { mode: "SELECTION_ONLY", values: ["Mechanical (Hand-winding)", "Mechanical (Automatic)", "Key-wound", "Quartz"] }),
      aspect("Type", { values: ["Pocket Watch", "Stopwatch"] }),
      aspect("Model"),
      aspect("Case Size"),
      aspect("Case Material", { values: caseMaterials }),
    ],
  },
  "57720": {
    name: "Watch Parts",
    conditions: ["NEW", "NEW_OTHER", "USED_EXCELLENT", "FOR_PARTS_OR_NOT_WORKING"],
    aspects: [required("Brand"), required("Type", { values: partTypes }), aspect("Caliber"), aspect("Movement", { values: movements }), aspect("Model")],
  },
  "117039": {
    name: "Watchmaking Tools",
    conditions: ["NEW", "NEW_OTHER", "SELLER_REFURBISHED", "USED_EXCELLENT", "USED_VERY_GOOD", "USED_GOOD", "USED_ACCEPTABLE", "FOR_PARTS_OR_NOT_WORKING"],
    aspects: [required("Brand"), required("Type"), aspect("Model")],
  },
};

const otherCategory: SandboxCategory = { name: "Other", aspects: [required("Brand")], conditions: ["NEW", "USED_EXCELLENT", "FOR_PARTS_OR_NOT_WORKING"] };

const categoryOf = (categoryId: string): SandboxCategory => sandboxCategories[categoryId] ?? otherCategory;

export function sandboxCategoryAspects(categoryId: string): MarketplaceCategoryAspects {
  const category = categoryOf(categoryId);
  return { categoryName: category.name, aspects: category.aspects };
}

export function sandboxConditionPolicies(categoryIds: readonly string[]): MarketplaceConditionPolicy[] {
  return [...new Set(categoryIds)].map((categoryId) => ({ categoryId, conditionRequired: true, conditions: categoryOf(categoryId).conditions }));
}

/**
 * What eBay's publishOffer says of an item that its category would not list: a required item specific missing, or
 * given a value a SELECTION_ONLY aspect does not have (error 25002, naming the aspect), or a condition the category
 * does not take (error 25021). Null when it may be listed.
 */
export function listingRefusal(categoryId: string, item: { condition?: string; aspects: Record<string, string[]> }): Refusal | null {
  const category = categoryOf(categoryId);
  for (const rule of category.aspects) {
    const given = Object.entries(item.aspects).find(([name]) => name.toLowerCase() === rule.name.toLowerCase())?.[1] ?? [];
    const values = given.map((value) => value.trim()).filter(Boolean);
    const allowed = rule.mode === "FREE_TEXT" || values.every((value) => rule.values.some((option) => option.toLowerCase() === value.toLowerCase()));
    if ((rule.required && values.length === 0) || (values.length > 0 && !allowed)) {
      return {
        status: 400,
        errorId: 25002,
        message: `The item specific ${rule.name} is ${values.length === 0 ? "missing" : `invalid (${values.join(", ")})`}. Add ${rule.name} to this listing, enter a valid value and then try again.`,
        parameters: [{ name: "0", value: rule.name }],
      };
    }
  }
  if (!item.condition || !(category.conditions as string[]).includes(item.condition)) {
    return {
      status: 400,
      errorId: 25021,
      message: `Invalid item condition information: ${item.condition ?? "no condition"} is not a condition of category ${categoryId} (${category.name}).`,
      parameters: [{ name: "0", value: item.condition ?? "" }],
    };
  }
  return null;
}
