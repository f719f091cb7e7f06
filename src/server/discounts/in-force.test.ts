import { describe, expect, it } from "vitest";
import { discountStatus, isDiscountInForce } from "./in-force";
import { inForceCases, NOW } from "./in-force-cases";

describe("isDiscountInForce", () => {
  it.each(inForceCases)("$name: in force is $inForce", ({ window, inForce }) => {
    expect(isDiscountInForce(window, NOW)).toBe(inForce);
  });
});

describe("discountStatus", () => {
  it.each(inForceCases)("$name: running exactly when in force", ({ window, inForce }) => {
    expect(discountStatus(window, NOW) === "running").toBe(inForce);
  });

  it("tells switched off, scheduled and expired apart", () => {
    const day = 24 * 60 * 60 * 1000;
    const at = (offset: number) => new Date(NOW.getTime() + offset);
    expect(discountStatus({ active: false, startsAt: at(day), expiresAt: null }, NOW)).toBe("inactive");
    expect(discountStatus({ active: true, startsAt: at(day), expiresAt: at(2 * day) }, NOW)).toBe("scheduled");
    expect(discountStatus({ active: true, startsAt: null, expiresAt: NOW }, NOW)).toBe("expired");
  });
});
