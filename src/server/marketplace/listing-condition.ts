import type { ProductState } from "@/lib/enums";
import type { MarketplaceCondition } from "@/server/integrations/marketplace/port";

/*
 * The condition a piece is listed in on eBay, from the product's state (new, used, unknown) and its Condition text,
 * and whether its eBay category takes that condition (the Metadata API's allowed conditions, category-rules.ts).
 * A piece that does not run, or was never tested, is "For parts or not working" whatever else it says: eBay's own
 * definition, and the only honest listing of it.
 */

/** eBay's longest condition description. */
const DESCRIPTION_LENGTH = 1000;

const forParts = /for parts|not running|not working|non[- ]?working|does not run|doesn't run|spares|needs? (?:a )?(?:repair|service)|defective|broken|untested|not tested|sold as (?:found|seen|is)|condition unknown/i;
const newWithDefects = /defect|damaged|scratch|dent|chip/i;
const newInPackaging = /sealed|original (?:packaging|box|bag)|maker's bag|with (?:box|tags)|in (?:its|the) box/i;
const newOther = /new old stock|\bnos\b|workshop stock|never (?:fitted|worn|used)|unused|without (?:box|packaging)|no (?:box|packaging)/i;
const refurbished = /serviced|overhauled|restored|refurbished|revised/i;
const usedExcellent = /mint|excellent|like new|near new/i;
const usedVeryGood = /very good|light wear|lightly worn|light scratches|minor (?:wear|scratches)/i;
const usedGood = /\bgood\b/i;
const usedAcceptable = /acceptable|\bfair\b|heavy wear|heavily worn|worn|scratched/i;

/**
 * The eBay condition that says best what the shop says of a piece. The name counts for "for parts" only (a movement
 * named "… for parts" is one, whatever its condition text).
 */
export function shopCondition(state: ProductState, conditionText: string | null | undefined, name = ""): MarketplaceCondition {
  const text = conditionText ?? "";
  if (state === "UNKNOWN" || forParts.test(text) || forParts.test(name)) return "FOR_PARTS_OR_NOT_WORKING";
  if (state === "NEW") {
    if (newWithDefects.test(text)) return "NEW_WITH_DEFECTS";
    if (newInPackaging.test(text)) return "NEW";
    return newOther.test(text) ? "NEW_OTHER" : "NEW";
  }
  if (refurbished.test(text)) return "SELLER_REFURBISHED";
  if (usedExcellent.test(text)) return "USED_EXCELLENT";
  if (usedVeryGood.test(text)) return "USED_VERY_GOOD";
  if (usedGood.test(text)) return "USED_GOOD";
  if (usedAcceptable.test(text)) return "USED_ACCEPTABLE";
  // eBay's plain "Used" / "Pre-owned" (condition 3000) where it has no grades.
  return "USED_EXCELLENT";
}

const usedGrades: readonly MarketplaceCondition[] = ["USED_VERY_GOOD", "USED_GOOD", "USED_ACCEPTABLE"];

/**
 * What may stand in for a condition where a category does not take it, without saying more than the shop does: a
 * serviced piece is pre-owned, and a graded used piece is eBay's plain "Pre-owned" (3000) in a category that has no
 * grades (the watch categories). New, new-other and for-parts have no stand-in.
 */
function standIns(condition: MarketplaceCondition, allowed: readonly MarketplaceCondition[]): MarketplaceCondition[] {
  if (condition === "SELLER_REFURBISHED") return ["USED_EXCELLENT"];
  if (usedGrades.includes(condition) && !allowed.some((other) => usedGrades.includes(other))) return ["USED_EXCELLENT"];
  if (condition === "NEW") return ["NEW_OTHER"];
  return [];
}

const conditionWords: Record<MarketplaceCondition, string> = {
  NEW: "new",
  NEW_OTHER: "new (other)",
  NEW_WITH_DEFECTS: "new with defects",
  SELLER_REFURBISHED: "seller refurbished",
  USED_EXCELLENT: "used",
  USED_VERY_GOOD: "used, very good",
  USED_GOOD: "used, good",
  USED_ACCEPTABLE: "used, acceptable",
  FOR_PARTS_OR_NOT_WORKING: "for parts or not working",
};

export type ListingCondition =
  | { condition: MarketplaceCondition; description: string | null; blocker: null }
  | { condition: MarketplaceCondition; description: string | null; blocker: string };

/**
 * The condition and condition description a product is listed with. `allowed` is the category's list (null: no
 * policy, any goes). A condition the category does not take, and a piece that is not new without a Condition text
 * (eBay's buyers read it, and "used" alone hides what they must know), are blockers naming what to change.
 */
export function listingConditionFor(
  product: { state: ProductState; name: string; conditionText: string | null },
  allowed: readonly MarketplaceCondition[] | null,
  categoryName: string,
): ListingCondition {
  const wanted = shopCondition(product.state, product.conditionText, product.name);
  const condition = !allowed || allowed.includes(wanted) ? wanted : (standIns(wanted, allowed).find((other) => allowed.includes(other)) ?? null);
  const text = product.conditionText?.replace(/\s+/g, " ").trim();
  const said = text && text !== "N/A" ? text.slice(0, DESCRIPTION_LENGTH) : null;
  // eBay takes no condition description for new pieces.
  const description = wanted === "NEW" ? null : (said ?? (product.state === "UNKNOWN" ? "Not tested: sold as found, for parts or repair." : null));
  if (!condition) {
    return { condition: wanted, description, blocker: `eBay does not take "${conditionWords[wanted]}" pieces in ${categoryName}: check the product's State and Condition` };
  }
  if (wanted !== "NEW" && !description) {
    return { condition, description, blocker: `eBay listings of pieces that are not new describe their condition: fill the product's Condition` };
  }
  return { condition, description, blocker: null };
}
