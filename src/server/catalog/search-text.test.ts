import { describe, expect, it } from "vitest";
import { buildSearchText, NOT_APPLICABLE } from "./search-text";

describe("buildSearchText", () => {
  it("reads what a product is and how it looks, in words, lower-cased", () => {
    expect(
      buildSearchText({
        name: "Seiko 6139 Pogue",
        manufacturer: "Seiko",
        category: "Watches",
        caliber: "QUARTZ_ELECTRONIC_KINETIC",
        itemType: "UNKNOWN",
        description: { movement: "Automatic  chronograph", condition: "Serviced" },
      }),
    ).toBe("seiko 6139 pogue seiko watches quartz electronic kinetic automatic chronograph serviced");
  });

  it("leaves out serial numbers, notes and fields that do not apply, whoever writes the product", () => {
    const text = buildSearchText({
      name: "Crown",
      description: { serialNumber: "Case serial 1234", additional: "Ships insured", language: "English", bezel: NOT_APPLICABLE, crown: "Signed" },
    });
    expect(text).toBe("crown signed");
  });
});
