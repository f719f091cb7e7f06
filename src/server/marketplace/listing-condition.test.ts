import { describe, expect, it } from "vitest";
import type { ProductState } from "@/lib/enums";
import type { MarketplaceCondition } from "@/server/integrations/marketplace/port";
import { sandboxCategories } from "@/server/integrations/marketplace/sandbox-taxonomy";
import { listingConditionFor, shopCondition } from "./listing-condition";

/**
 * Issue 30: every state and condition the shop knows (the product form's Condition choices, as the demo catalogue
 * seeds them, and the words staff write) mapped to eBay's condition, then to what the piece's eBay category takes.
 */
const table: [ProductState, string, MarketplaceCondition][] = [
  ["NEW", "New, in original packaging", "NEW"],
  ["NEW", "New old stock, sealed in the maker's bag", "NEW"],
  ["NEW", "New old stock (NOS), never fitted", "NEW_OTHER"],
  ["NEW", "New, unused workshop stock", "NEW_OTHER"],
  ["NEW", "New, small scratch on the case back", "NEW_WITH_DEFECTS"],
  ["NEW", "", "NEW"],
  ["USED", "Used, in good working order", "USED_GOOD"],
  ["USED", "Used, light wear consistent with age", "USED_VERY_GOOD"],
  ["USED", "Pre-owned, serviced by our watchmaker", "SELLER_REFURBISHED"],
  ["USED", "Used, for parts or repair — not running", "FOR_PARTS_OR_NOT_WORKING"],
  ["USED", "Used, removed from a running watch", "USED_EXCELLENT"],
  ["USED", "Mint, as new", "USED_EXCELLENT"],
  ["USED", "Heavily worn case, runs", "USED_ACCEPTABLE"],
  ["USED", "Needs a service", "FOR_PARTS_OR_NOT_WORKING"],
  ["UNKNOWN", "Untested, sold as found", "FOR_PARTS_OR_NOT_WORKING"],
  ["UNKNOWN", "Condition unknown, sold as seen", "FOR_PARTS_OR_NOT_WORKING"],
  ["UNKNOWN", "", "FOR_PARTS_OR_NOT_WORKING"],
];

describe("the eBay condition of a piece", () => {
  it.each(table)("%s, %j is %s", (state, text, condition) => {
    expect(shopCondition(state, text)).toBe(condition);
  });

  it("takes a name that says 'for parts' at its word", () => {
    expect(shopCondition("USED", "Used, in good working order", "Seiko 6139 chronograph movement, for parts")).toBe("FOR_PARTS_OR_NOT_WORKING");
  });

  const wristwatches = sandboxCategories["31387"]!.conditions;
  const tools = sandboxCategories["117039"]!.conditions;
  const listed = (state: ProductState, conditionText: string | null, allowed: MarketplaceCondition[] | null) =>
    listingConditionFor({ state, name: "Omega Seamaster", conditionText }, allowed, "Wristwatches");

  it("lists a graded or serviced piece as plain pre-owned in a category without grades, and graded where there are grades", () => {
    expect(listed("USED", "Used, in good working order", wristwatches)).toEqual({ condition: "USED_EXCELLENT", description: "Used, in good working order", blocker: null });
    expect(listed("USED", "Pre-owned, serviced by our watchmaker", wristwatches)).toMatchObject({ condition: "USED_EXCELLENT", blocker: null });
    expect(listed("USED", "Used, in good working order", tools)).toMatchObject({ condition: "USED_GOOD", blocker: null });
    expect(listed("USED", "Pre-owned, serviced by our watchmaker", tools)).toMatchObject({ condition: "SELLER_REFURBISHED", blocker: null });
  });

  it("never lists a piece that does not run as anything but for parts: a category without it blocks", () => {
    expect(listed("USED", "Used, for parts or repair — not running", wristwatches)).toMatchObject({ condition: "FOR_PARTS_OR_NOT_WORKING", blocker: null });
    expect(listed("USED", "Used, for parts or repair — not running", ["NEW", "USED_EXCELLENT"]).blocker).toBe(
      `eBay does not take "for parts or not working" pieces in Wristwatches: check the product's State and Condition`,
    );
    expect(listed("NEW", "New old stock (NOS), never fitted", ["NEW", "USED_EXCELLENT"]).blocker).toMatch(/does not take "new \(other\)" pieces/);
  });

  it("describes every piece that is not new; one without a Condition text is blocked, an untested one says so", () => {
    expect(listed("NEW", "New, in original packaging", wristwatches)).toEqual({ condition: "NEW", description: null, blocker: null });
    expect(listed("USED", null, wristwatches).blocker).toBe("eBay listings of pieces that are not new describe their condition: fill the product's Condition");
    expect(listed("UNKNOWN", null, wristwatches)).toEqual({ condition: "FOR_PARTS_OR_NOT_WORKING", description: "Not tested: sold as found, for parts or repair.", blocker: null });
    expect(listed("USED", "Light scratches", null)).toMatchObject({ condition: "USED_VERY_GOOD", description: "Light scratches", blocker: null });
  });
});
