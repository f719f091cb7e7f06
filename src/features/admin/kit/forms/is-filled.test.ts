import { describe, expect, it } from "vitest";
import { isFilled, missingFields } from "./is-filled";

describe("isFilled (SPEC section 5)", () => {
  it("counts numbers unless NaN, valid dates, every boolean, non-empty arrays and truthy values", () => {
    expect([isFilled(0), isFilled(12), isFilled(Number.NaN)]).toEqual([true, true, false]);
    expect([isFilled(new Date("2030-01-01")), isFilled(new Date("nonsense"))]).toEqual([true, false]);
    expect([isFilled(false), isFilled(true)]).toEqual([true, true]);
    expect([isFilled([]), isFilled(["a"])]).toEqual([false, true]);
    expect([isFilled(""), isFilled("  "), isFilled("Seiko"), isFilled(null), isFilled(undefined)]).toEqual([false, false, true, false, false]);
  });

  it("lists the required fields that are missing", () => {
    expect(missingFields({ name: "", price: "12", categoryId: Number.NaN, isBulk: false }, ["name", "price", "categoryId", "isBulk"])).toEqual([
      "name",
      "categoryId",
    ]);
  });
});
