import { describe, expect, it } from "vitest";
import { listingUrl, plural } from "./labels";

describe("a listing's address", () => {
  it("is the sandbox marketplace's own page in the sandbox", () => {
    expect(listingUrl("sandbox", "EBAY_NL", "110001")).toBe("/sandbox/ebay/110001");
  });

  it("is the listing on the eBay site of its marketplace when live", () => {
    expect(listingUrl("live", "EBAY_NL", "110001")).toBe("https://www.ebay.nl/itm/110001");
    expect(listingUrl("live", "EBAY_DE", "110001")).toBe("https://www.ebay.de/itm/110001");
  });
});

describe("counted words", () => {
  it("are singular for one and grouped in thousands", () => {
    expect(plural(1, "offer")).toBe("1 offer");
    expect(plural(1204, "offer")).toBe("1,204 offers");
  });
});
