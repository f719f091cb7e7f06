import { describe, expect, it } from "vitest";
import { isDiscountInForce } from "./in-force";
import { inForceCases, NOW } from "./in-force-cases";

describe("isDiscountInForce", () => {
  it.each(inForceCases)("$name: in force is $inForce", ({ window, inForce }) => {
    expect(isDiscountInForce(window, NOW)).toBe(inForce);
  });
});
