import { describe, expect, it } from "vitest";
import { localPath, safeRedirect } from "./redirect";

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

describe("localPath", () => {
  it("keeps a path on the shop, with its query and fragment", () => {
    expect(localPath("/account/orders?page=2#latest")).toBe("/account/orders?page=2#latest");
    expect(localPath("/checkout")).toBe("/checkout");
  });
  it("refuses what a browser would resolve to another site", () => {
    for (const value of ["/\\evil.example", "/\\evil.example/path", "/\t/evil.example", "//evil.example", "https://evil.example", "javascript:alert(1)", "\\\\evil.example"]) {
      expect(localPath(value), value).toBe("/");
    }
    expect(localPath(undefined)).toBe("/");
  });
});
