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

  // Each field falls back on its own: a field left open counts as UNKNOWN, and the fields staff did classify keep
  // their values, each in its own place (a facet counts the piece under what its own field says).
  it.each(["caliber", "state", "itemType", "gender"] as const)("counts only an open %s as UNKNOWN and keeps the other three", (open) => {
    const described = { caliber: "CHRONOGRAPH", state: "USED", itemType: "WRISTWATCH", gender: "MENS" } as const;
    const classification = classificationOf({ ...described, [open]: null });
    expect(classification).toEqual({ ...described, [open]: "UNKNOWN" });
  });
});
