import { describe, expect, it } from "vitest";
import { itemTypes } from "./enums";
import { attributeLabel, type AttributeKey } from "./labels";

describe("attributeLabel", () => {
  it("reads the labels of SPEC section 3", () => {
    expect(attributeLabel("gender", "MENS")).toBe("Men's");
    expect(attributeLabel("gender", "LADIES")).toBe("Ladies");
    expect(attributeLabel("caliber", "QUARTZ_ELECTRONIC_KINETIC")).toBe("Quartz/Electronic/Kinetic");
    expect(attributeLabel("caliber", "HANDWIND")).toBe("Handwind");
    expect(attributeLabel("state", "USED")).toBe("Used");
    expect(attributeLabel("itemType", "BUCKLE_CLASP_CLIP")).toBe("Buckle/Clasp/Clip");
    expect(attributeLabel("itemType", "DAY_DATE_COMPONENT")).toBe("Day/Date Component");
  });

  it("title-cases every item type", () => {
    for (const type of itemTypes) expect(attributeLabel("itemType", type)).toMatch(/^[A-Z][a-z]*([ /&][A-Za-z&]*)*$/);
  });

  it("shows N/A for a missing value and Unknown for an unmapped one", () => {
    expect(attributeLabel("caliber", null)).toBe("N/A");
    expect(attributeLabel("state", "REFURBISHED")).toBe("Unknown");
    expect(attributeLabel("itemType", "toString")).toBe("Unknown");
  });

  it("throws on an unknown attribute key", () => {
    expect(() => attributeLabel("colour" as AttributeKey, "RED")).toThrow(/Unknown attribute key "colour"/);
  });
});
