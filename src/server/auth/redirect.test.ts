import { describe, expect, it } from "vitest";
import { safeRedirect } from "./redirect";

const base = "https://shop.example";

describe("safeRedirect", () => {
  it("keeps paths and addresses on the shop's own origin", () => {
    expect(safeRedirect("/account?tab=orders", base)).toBe("https://shop.example/account?tab=orders");
    expect(safeRedirect("https://shop.example/checkout", base)).toBe("https://shop.example/checkout");
  });
  it("sends anything else to the shop's home", () => {
    expect(safeRedirect("https://evil.example/", base)).toBe(base);
    expect(safeRedirect("//evil.example/x", base)).toBe(base);
    expect(safeRedirect("https://shop.example.evil.example/", base)).toBe(base);
    expect(safeRedirect("javascript:alert(1)", base)).toBe(base);
    expect(safeRedirect("http://shop.example/", base)).toBe(base);
  });
});
