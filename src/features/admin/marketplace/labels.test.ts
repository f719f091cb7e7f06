import { describe, expect, it } from "vitest";
import { listingUrl } from "./labels";

describe("a listing's address", () => {
  it("is the sandbox marketplace's own page in the sandbox", () => {
    expect(listingUrl("sandbox", "EBAY_NL", "110001")).toBe("/sandbox/ebay/110001");
  });

  it("is the listing on the eBay site of its marketplace when live", () => {
    expect(listingUrl("live", "EBAY_NL", "110001")).toBe("https://www.ebay.nl/itm/110001");
    expect(listingUrl("live", "EBAY_DE", "110001")).toBe("https://www.ebay.de/itm/110001");
  });
});
