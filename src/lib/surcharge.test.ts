import { Decimal } from "decimal.js";
import { describe, expect, it } from "vitest";
import { surchargeAmount, surchargeBandFor, type SurchargeBand } from "./surcharge";

/** The insurance surcharge: which band an order value falls in and what it pays. */

const band = (minPrice: string, maxPrice: string, percentage: string): SurchargeBand => ({
  minPrice: new Decimal(minPrice),
  maxPrice: new Decimal(maxPrice),
  percentage: new Decimal(percentage),
});

// The seed's bands, given out of order: the choice must not depend on how the table returns them.
const bands = [band("250.00", "500.00", "0.035"), band("0.00", "100.00", "0"), band("500.00", "99999999.99", "0.05"), band("100.00", "250.00", "0.02")];

describe("surcharge band", () => {
  it.each([
    ["0.00", "0"],
    ["99.99", "0"],
    ["100.00", "0.02"], // 100.00 ends one band and starts the next: the higher applies
    ["249.99", "0.02"],
    ["250.00", "0.035"],
    ["500.00", "0.05"],
    ["1234.56", "0.05"],
  ])("puts an order of €%s in the band of rate %s", (value, rate) => {
    expect(surchargeBandFor(bands, new Decimal(value))?.percentage.toString()).toBe(rate);
  });

  it("finds no band for a value outside every band, and then charges nothing", () => {
    const partial = [band("100.00", "250.00", "0.02")];
    expect(surchargeBandFor(partial, new Decimal("99.99"))).toBeNull();
    expect(surchargeBandFor(partial, new Decimal("250.01"))).toBeNull();
    expect(surchargeBandFor([], new Decimal("10.00"))).toBeNull();
    expect(surchargeAmount(new Decimal("300.00"), null).toFixed(2)).toBe("0.00");
  });

  it("charges the band's rate of the order value, rounded half up to the cent", () => {
    const surcharge = (value: string) => surchargeAmount(new Decimal(value), surchargeBandFor(bands, new Decimal(value))).toFixed(2);
    expect(surcharge("45.00")).toBe("0.00");
    expect(surcharge("180.25")).toBe("3.61"); // 3.605
    expect(surcharge("499.99")).toBe("17.50"); // 17.49965
    expect(surcharge("600.00")).toBe("30.00");
  });
});
