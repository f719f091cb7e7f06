import { describe, expect, it } from "vitest";
import { classificationOf } from "./classification";

describe("classificationOf", () => {
  it("counts a product without a description as UNKNOWN for every field", () => {
    expect(classificationOf({ caliber: null, state: null, itemType: null, gender: null })).toEqual({
      caliber: "UNKNOWN",
      state: "UNKNOWN",
      itemType: "UNKNOWN",
      gender: "UNKNOWN",
    });
  });

  it("keeps what the description says", () => {
    const described = { caliber: "CHRONOGRAPH", state: "USED", itemType: "WRISTWATCH", gender: "MENS" } as const;
    expect(classificationOf(described)).toEqual(described);
  });
});
