import { Decimal } from "decimal.js";
import { describe, expect, it } from "vitest";
import { formatVatRate, includedVat } from "./vat";

describe("the VAT line of an invoice", () => {
  it("takes the VAT out of a VAT-inclusive total, to the cent", () => {
    expect(includedVat(new Decimal("121.00"), new Decimal("0.21")).toFixed(2)).toBe("21.00");
    expect(includedVat(new Decimal("252.50"), new Decimal("0.21")).toFixed(2)).toBe("43.82");
    expect(includedVat(new Decimal("10.00"), new Decimal("0.09")).toFixed(2)).toBe("0.83");
    expect(includedVat(new Decimal("99.99"), new Decimal("0")).toFixed(2)).toBe("0.00");
  });

  it("names the rate as a percentage", () => {
    expect(formatVatRate(new Decimal("0.21"))).toBe("21%");
    expect(formatVatRate(new Decimal("0.055"))).toBe("5.5%");
  });
});
