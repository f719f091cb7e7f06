import { Decimal } from "decimal.js";
import { describe, expect, it } from "vitest";
import { sandboxCategoryAspects } from "@/server/integrations/marketplace/sandbox-taxonomy";
import type { CategoryRules } from "./category-rules";
import { itemSpecifics, modelFromName } from "./item-specifics";
import type { OfferSource } from "./offer-record";

const seamaster: OfferSource = {
  productId: 7,
  name: "Omega Seamaster ref. 166.010 automatic",
  price: new Decimal("1250.00"),
  stock: 1,
  state: "USED",
  caliber: "AUTOMATIC",
  gender: "MENS",
  itemType: "WRISTWATCH",
  description: { condition: "Used, in good working order", movement: "Omega 565 automatic, 24 jewels", dimensions: "34 mm without crown, 18 mm lug width", bezel: "Polished steel bezel" },
  manufacturer: "Omega",
  shopManufacturer: null,
  category: "Automatic watches",
  ebayCategoryId: "31387",
  shopCategory: null,
  imageUrls: ["https://shop.example/1.webp"],
  published: true,
};

const rulesOf = (categoryId: string): CategoryRules => ({ categoryId, ...sandboxCategoryAspects(categoryId), conditions: null });

describe("eBay item specifics from the product's description", () => {
  it("fills a wristwatch's required and recommended aspects in eBay's names and values", () => {
    expect(itemSpecifics(seamaster, rulesOf("31387"))).toEqual({
      aspects: {
        Brand: ["Omega"],
        Type: ["Wristwatch"],
        Department: ["Men"],
        Model: ["Seamaster"],
        Movement: ["Mechanical (Automatic)"],
        "Case Size": ["34 mm"],
        "Case Material": ["Stainless Steel"],
        Caliber: ["Omega 565 automatic, 24 jewels"],
        "Reference Number": ["166.010"],
      },
      missing: [],
    });
  });

  it("names each required aspect it cannot fill, with the product field to fill", () => {
    const chronograph = { ...seamaster, caliber: "CHRONOGRAPH" as const, gender: "UNKNOWN" as const, description: { ...seamaster.description, movement: "Valjoux 72, 17 jewels" } };
    expect(itemSpecifics(chronograph, rulesOf("31387")).missing).toEqual([
      "eBay requires Department for Wristwatches: fill the product's Gender",
      "eBay requires Movement for Wristwatches: fill the product's Movement",
    ]);
    // The movement's words say which kind a chronograph is.
    const automaticChronograph = { ...chronograph, gender: "MENS" as const, description: { ...chronograph.description, movement: "Lemania 1341 automatic chronograph" } };
    expect(itemSpecifics(automaticChronograph, rulesOf("31387"))).toMatchObject({ missing: [], aspects: { Movement: ["Mechanical (Automatic)"], Features: ["Chronograph"] } });
  });

  it("counts a value a SELECTION_ONLY aspect does not take as missing, and an aspect the shop has no field for", () => {
    const rules = rulesOf("31387");
    const strict: CategoryRules = {
      ...rules,
      aspects: [...rules.aspects.map((aspect) => (aspect.name === "Movement" ? { ...aspect, values: ["Quartz"] } : aspect)), { ...rules.aspects[0]!, name: "Display", required: true }],
    };
    expect(itemSpecifics(seamaster, strict).missing).toEqual([
      `eBay requires Movement for Wristwatches: fill the product's Movement ("Mechanical (Automatic)" is not one of eBay's values)`,
      "eBay requires Display for Wristwatches: the shop has no product field for it",
    ]);
  });

  it("fills a part's brand and type", () => {
    const crown = { ...seamaster, name: "Crown for Omega 565", itemType: "CROWN" as const, caliber: "UNKNOWN" as const, ebayCategoryId: "57720" };
    expect(itemSpecifics(crown, rulesOf("57720"))).toMatchObject({ missing: [], aspects: { Brand: ["Omega"], Type: ["Crown"] } });
    expect(itemSpecifics({ ...crown, itemType: "UNKNOWN" }, rulesOf("57720")).missing).toEqual(["eBay requires Type for Watch Parts: fill the product's Item type"]);
  });

  it("reads the model in the name after the brand", () => {
    expect(modelFromName("Seiko 5 Sports ref. 6119-8460 automatic", "Seiko")).toBe("5 Sports");
    expect(modelFromName("Omega Seamaster 34 mm, 1960s", "Omega")).toBe("Seamaster");
    expect(modelFromName("Omega Constellation silver dial automatic", "Omega")).toBe("Constellation");
    expect(modelFromName("Heuer Carrera cal. Valjoux 72 chronograph", "Heuer")).toBe("Carrera");
    expect(modelFromName("Seiko King Seiko ladies' automatic", "Seiko")).toBe("King Seiko");
    expect(modelFromName("Oris Diver cal. 645 automatic", "Oris")).toBe("Diver");
    expect(modelFromName("Ebel 1911 white dial chronograph", "Ebel")).toBe("1911");
    expect(modelFromName("Vintage Omega watch", "Omega")).toBeNull();
    expect(modelFromName("Omega automatic", "Omega")).toBeNull();
  });
});
