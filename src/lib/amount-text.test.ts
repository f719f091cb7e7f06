import { Decimal } from "decimal.js";
import { describe, expect, it } from "vitest";
import { euroText, percentAsTyped, percentText } from "./amount-text";

describe("amounts as staff type them", () => {
  it("reads euros with a point or a comma", () => {
    expect(euroText.parse("49,95").toFixed(2)).toBe("49.95");
    expect(euroText.safeParse("49.955").success).toBe(false);
  });

  it("reads a percentage into the fraction the shop computes with, and shows a fraction as it is typed", () => {
    expect(percentText.parse("7,5").toString()).toBe("0.075");
    expect(percentAsTyped(new Decimal("0.075"))).toBe("7.5");
    expect(percentAsTyped(new Decimal("0.1500"))).toBe("15");
    expect(percentAsTyped(new Decimal("0.035"))).toBe("3.5");
    expect(percentAsTyped(new Decimal("0"))).toBe("0");
    for (const typed of ["15", "7.5", "0.25", "100"]) expect(percentAsTyped(percentText.parse(typed))).toBe(typed);
  });
});
