import { describe, expect, it } from "vitest";
import { clampTyped } from "./clamp-typed";

describe("clampTyped", () => {
  it("raises a number below the minimum to the minimum", () => {
    expect(clampTyped("-5", 0.01, 100)).toBe("0.01");
    expect(clampTyped("0", 1, 90)).toBe("1");
  });

  it("lowers a number above the maximum to the maximum", () => {
    expect(clampTyped("150", 0.01, 100)).toBe("100");
    expect(clampTyped("1000", 1, 999)).toBe("999");
  });

  it("keeps a number in range exactly as typed, decimals and comma included", () => {
    expect(clampTyped("7.5", 0.01, 100)).toBe("7.5");
    expect(clampTyped("12,50", 0, 99_999_999.99)).toBe("12,50");
    expect(clampTyped("1", 1, 999)).toBe("1");
  });

  it("leaves an empty field and text that is no number to the form's schema", () => {
    expect(clampTyped("", 1, 999)).toBe("");
    expect(clampTyped("  ", 1, 999)).toBe("  ");
    expect(clampTyped("abc", 1, 999)).toBe("abc");
  });
});
