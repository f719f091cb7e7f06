import { describe, expect, it } from "vitest";
import { preselectedCountry } from "./preselected-country";

const shipsTo = [
  { code: "BE", eu: true },
  { code: "DE", eu: true },
  { code: "GB", eu: false },
  { code: "NL", eu: true },
  { code: "US", eu: false },
];

describe("the country a new delivery address starts with", () => {
  it("is the Netherlands for an en-US browser, not the United States", () => {
    expect(preselectedCountry(shipsTo, "US")).toBe("NL");
  });

  it("is the browser's EU country when the shop ships there", () => {
    expect(preselectedCountry(shipsTo, "DE")).toBe("DE");
    expect(preselectedCountry(shipsTo, "BE")).toBe("BE");
  });

  it("is the Netherlands without a guess, or for a country outside the EU or not shipped to", () => {
    expect(preselectedCountry(shipsTo, null)).toBe("NL");
    expect(preselectedCountry(shipsTo, "GB")).toBe("NL");
    expect(preselectedCountry(shipsTo, "FR")).toBe("NL");
  });

  it("is none when the shop does not ship to the Netherlands either", () => {
    expect(preselectedCountry([{ code: "US", eu: false }], "US")).toBe("");
  });
});
