import { describe, expect, it } from "vitest";
import { formatDiscountValue, readDiscountValue } from "./admin-schemas";

describe("a discount's value as typed", () => {
  it("reads a percentage as the stored fraction and an amount as euros, as the storefront will show them", () => {
    const percent = readDiscountValue("PERCENT", " 15 ");
    expect("value" in percent && percent.value.toString()).toBe("0.15");
    expect("value" in percent && formatDiscountValue({ pricingType: "PERCENT", value: percent.value })).toBe("-15%");
    const fixed = readDiscountValue("FIXED", "4,95");
    expect("value" in fixed && formatDiscountValue({ pricingType: "FIXED", value: fixed.value })).toBe("-€4.95");
  });

  it("refuses what the form would refuse, in the form's words", () => {
    expect(readDiscountValue("PERCENT", "")).toEqual({ message: "Enter the percentage, like 15" });
    expect(readDiscountValue("FIXED", " ")).toEqual({ message: "Enter the amount in euros, like 5.00" });
    expect(readDiscountValue("PERCENT", "120")).toEqual({ message: "must be more than 0 and at most 100" });
    expect(readDiscountValue("FIXED", "0")).toEqual({ message: "must be more than €0.00" });
    expect(readDiscountValue("FIXED", "five")).toEqual({ message: "must be an amount in euros, like 49.95" });
  });
});
