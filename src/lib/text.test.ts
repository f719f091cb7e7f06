import { describe, expect, it } from "vitest";
import { lineText, oneLine } from "./text";

describe("lineText", () => {
  const lastName = lineText("Last name").min(1);

  it("takes a name with accents, spaces and punctuation, trimmed", () => {
    expect(lastName.parse("  van der Łukasiewicz-Brël ")).toBe("van der Łukasiewicz-Brël");
    expect(lastName.parse("Smith\r\n")).toBe("Smith");
  });

  it("refuses a line break, a tab, NEL, a line separator or a bidi override within, naming the field", () => {
    for (const value of ["X\nITEMS TO PACK:", "X\rY", "X\tY", "X\u0085Y", "X\u2028Y", "X\u2029Y", "X\u202EY", "X\u2066Y", "X\u0007Y"]) {
      expect(lastName.safeParse(value).error?.issues.map((issue) => issue.message), JSON.stringify(value)).toEqual([
        "Last name must be one line: no line breaks, tabs or other control characters",
      ]);
    }
  });
});

describe("oneLine", () => {
  it("puts a field on one line: each run of line breaks and control characters becomes one space", () => {
    expect(oneLine("X\nITEMS TO PACK:\r\n[ ] 1 x Rolex Submariner")).toBe("X ITEMS TO PACK: [ ] 1 x Rolex Submariner");
    expect(oneLine("\u202EPAID\u202C\tIN\u2028FULL\n")).toBe("PAID IN FULL");
    expect(oneLine("Keizersgracht 123")).toBe("Keizersgracht 123");
    expect(oneLine(null)).toBeNull();
  });
});
