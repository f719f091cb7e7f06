import { createRequire } from "node:module";
import { Decimal } from "decimal.js";
import { describe, expect, it } from "vitest";
import { amountInput } from "./amount-input";

describe("amountInput", () => {
  it("takes a Decimal made by another copy of decimal.js, as another bundle layer of the server makes them", () => {
    // The package's CommonJS build: a class of its own beside the ES module this file imports.
    const OtherCopy = createRequire(import.meta.url)("decimal.js/decimal.js") as typeof Decimal;
    const amount = new OtherCopy("12.50");
    expect(amount instanceof Decimal).toBe(false);
    const parsed = amountInput.parse(amount);
    expect(parsed).toBeInstanceOf(Decimal);
    expect(parsed.toFixed(2)).toBe("12.50");
  });

  it("takes amounts as text and numbers, and refuses anything else", () => {
    expect(amountInput.parse("7.05").toFixed(2)).toBe("7.05");
    expect(amountInput.parse(3).toFixed(2)).toBe("3.00");
    expect(amountInput.safeParse("7,05").success).toBe(false);
    expect(amountInput.safeParse({ value: "7.05" }).success).toBe(false);
  });
});
