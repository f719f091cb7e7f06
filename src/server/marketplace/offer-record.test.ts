import { Decimal } from "decimal.js";
import { describe, expect, it } from "vitest";
import { sandboxCategories, sandboxCategoryAspects } from "@/server/integrations/marketplace/sandbox-taxonomy";
import { caseSize, itemSpecifics } from "./item-specifics";
import { blockerReasons, isBlocked } from "./schemas";
import { buildListing, listingBlocker, listingDescription, listingTitle, productSku, type OfferSource } from "./offer-record";

const listingAspects = (source: OfferSource) => itemSpecifics(source).aspects;

const speedmaster: OfferSource = {
  productId: 42,
  name: "Omega Speedmaster Professional 145.022",
  price: new Decimal("4250.00"),
  stock: 1,
  state: "USED",
  caliber: "CHRONOGRAPH",
  gender: "MENS",
  itemType: "WRISTWATCH",
  description: {
    condition: "Light wear on the bracelet",
    movement: "Omega 861, 17 jewels",
    dimensions: "Ø 42,0 mm, height 14 mm",
    dialHands: "N/A",
    crystal: "  ",
    additional3: "Serviced in 2024\nPapers <original>",
  },
  manufacturer: "Omega",
  shopManufacturer: "Omega",
  category: "Chronographs",
  ebayCategoryId: "31387",
  shopCategory: "Wristwatches",
  imageUrls: ["https://shop.example/storage/products/42/1.webp", "https://shop.example/storage/products/42/2.webp"],
  published: true,
};

describe("a product's listing", () => {
  it("has the SKU BC-<id>, the list price, the stock as quantity and the categories from the mappings", () => {
    const { item, offer } = buildListing(speedmaster, "EBAY_NL", speedmaster.price);
    expect(productSku(42)).toBe("BC-42");
    expect(item).toMatchObject({
      sku: "BC-42",
      marketplaceId: "EBAY_NL",
      // Without its category's rules, the condition the shop's words say best ("light wear": very good).
      condition: "USED_VERY_GOOD",
      conditionDescription: "Light wear on the bracelet",
      title: "Omega Speedmaster Professional 145.022",
      quantity: 1,
      imageUrls: speedmaster.imageUrls,
    });
    expect(offer).toEqual({
      sku: "BC-42",
      marketplaceId: "EBAY_NL",
      price: new Decimal("4250.00"),
      quantity: 1,
      categoryId: "31387",
      storeCategoryNames: ["Wristwatches", "Omega"],
      listingDescription: item.description,
    });
  });

  it("reads item specifics from the description", () => {
    expect(listingAspects(speedmaster)).toEqual({
      Brand: ["Omega"],
      Model: ["Speedmaster Professional"],
      Type: ["Wristwatch"],
      Caliber: ["Omega 861, 17 jewels"],
      "Case Size": ["42 mm"],
      Department: ["Men"],
      Features: ["Chronograph"],
    });
    expect(listingAspects({ ...speedmaster, caliber: "HANDWIND", gender: "UNKNOWN", manufacturer: null, itemType: "CROWN", name: "Crown for Omega 861" })).toEqual({
      Type: ["Crown"],
      Movement: ["Mechanical (Hand-winding)"],
      Caliber: ["Omega 861, 17 jewels"],
    });
    expect(caseSize("Ø 38.5 mm")).toBe("38.5 mm");
    expect(caseSize("20 mm at the lugs")).toBe("20 mm");
    expect(caseSize("large")).toBeNull();
  });

  it("describes the piece in HTML as the product page does, escaped, without empty or N/A fields", () => {
    const html = listingDescription(speedmaster);
    expect(html).toContain("<h1>Omega Speedmaster Professional 145.022</h1>");
    expect(html).toContain("<th align=\"left\" valign=\"top\">Brand</th><td>Omega</td>");
    expect(html).toContain("<th align=\"left\" valign=\"top\">Caliber</th><td>Chronograph</td>");
    expect(html).toContain("<td>Serviced in 2024<br>Papers &lt;original&gt;</td>");
    expect(html).not.toContain("Dial &amp; hands");
    expect(html).not.toContain("Crystal");
  });

  it("keeps titles within eBay's 80 characters, cut at a word", () => {
    const long = "Vintage   Longines Conquest automatic wristwatch with date, stainless steel case and original Longines buckle";
    const title = listingTitle(long);
    expect(title.length).toBeLessThanOrEqual(80);
    expect(title).toBe("Vintage Longines Conquest automatic wristwatch with date, stainless steel case");
    expect(listingTitle("x".repeat(100))).toHaveLength(80);
  });

  it("gives no condition description for a new piece", () => {
    expect(buildListing({ ...speedmaster, state: "NEW", description: { ...speedmaster.description, condition: "New, in original packaging" } }, "EBAY_DE", speedmaster.price).item).toMatchObject({
      condition: "NEW",
      conditionDescription: null,
    });
  });

  it("says why a product cannot be listed", () => {
    expect(listingBlocker(speedmaster, "publish")).toBeNull();
    expect(listingBlocker({ ...speedmaster, category: "Pocket watches", ebayCategoryId: null }, "publish")).toBe("No eBay category for Pocket watches");
    expect(listingBlocker({ ...speedmaster, category: null, ebayCategoryId: null }, "publish")).toMatch(/^No category/);
    expect(listingBlocker({ ...speedmaster, imageUrls: [] }, "publish")).toBe("No picture");
    expect(listingBlocker({ ...speedmaster, stock: 0 }, "publish")).toBe("Not in stock");
    // A draft is on no channel: eBay is not even asked.
    expect(listingBlocker({ ...speedmaster, published: false }, "publish")).toMatch(/^A draft/);
    // A listed piece that sold out stays listed with quantity 0.
    expect(listingBlocker({ ...speedmaster, stock: 0 }, "revise")).toBeNull();
    expect(buildListing({ ...speedmaster, stock: 0 }, "EBAY_NL", speedmaster.price).offer.quantity).toBe(0);
    expect(() => buildListing({ ...speedmaster, imageUrls: [] }, "EBAY_NL", speedmaster.price)).toThrow(expect.objectContaining({ code: "PRECONDITION_FAILED", message: "No picture" }));
  });

  it("lists every problem with its eBay category's rules, and counts a lack of stock alone as nothing to fix", () => {
    const rules = { categoryId: "31387", ...sandboxCategoryAspects("31387"), conditions: sandboxCategories["31387"]!.conditions };
    // The Omega 861's text does not say whether the chronograph winds itself.
    const soldOut = listingBlocker({ ...speedmaster, stock: 0 }, "publish", rules);
    expect(blockerReasons(soldOut)).toEqual(["eBay requires Movement for Wristwatches: fill the product's Movement", "Not in stock"]);
    expect(isBlocked(soldOut)).toBe(true);
    expect(isBlocked(listingBlocker({ ...speedmaster, stock: 0, description: { ...speedmaster.description, movement: "Omega 861 hand-wound chronograph" } }, "publish", rules))).toBe(false);
    expect(isBlocked(null)).toBe(false);
  });
});
