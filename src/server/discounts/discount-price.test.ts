import { Decimal } from "decimal.js";
import { describe, expect, it } from "vitest";
import { bestDiscount, discountedPrice, formatDiscountValue } from "./discount-price";

const percent = (value: string) => ({ value: new Decimal(value), pricingType: "PERCENT" as const });
const fixed = (value: string) => ({ value: new Decimal(value), pricingType: "FIXED" as const });

describe("discountedPrice", () => {
  it("takes a fraction of the price off for PERCENT", () => {
    expect(discountedPrice(new Decimal("120.00"), percent("0.15")).toFixed(2)).toBe("102.00");
  });
  it("takes the amount off for FIXED", () => {
    expect(discountedPrice(new Decimal("49.95"), fixed("10")).toFixed(2)).toBe("39.95");
  });
  it("rounds half up to cents", () => {
    expect(discountedPrice(new Decimal("9.99"), percent("0.15")).toFixed(2)).toBe("8.49");
  });
  it("never goes below zero", () => {
    expect(discountedPrice(new Decimal("5.00"), fixed("10")).toFixed(2)).toBe("0.00");
  });
});

describe("formatDiscountValue", () => {
  it("shows percent as a rounded whole percent with a minus sign", () => {
    expect(formatDiscountValue(percent("0.15"))).toBe("-15%");
    expect(formatDiscountValue(percent("0.125"))).toBe("-13%");
  });
  it("shows fixed as euros", () => {
    expect(formatDiscountValue(fixed("10"))).toBe("-€10.00");
  });
});

describe("bestDiscount", () => {
  it("picks the discount that leaves the lowest price", () => {
    const price = new Decimal("100");
    expect(bestDiscount(price, [percent("0.1"), fixed("15"), percent("0.12")])).toEqual(fixed("15"));
    expect(bestDiscount(new Decimal("300"), [percent("0.1"), fixed("15")])).toEqual(percent("0.1"));
  });
  it("returns null when nothing lowers the price", () => {
    expect(bestDiscount(new Decimal("100"), [])).toBeNull();
  });
});
