import { Decimal } from "decimal.js";
import { describe, expect, it } from "vitest";
import { surchargeBandFor } from "@/lib/surcharge";
import { surchargeBands as seededBands } from "@/server/setup/seed/reference-data";
import { saveSurchargeBandsInput, surchargeBandInput } from "./costs-schemas";
import { bandRange, checkSurchargeBands, percentOf } from "./surcharge-bands";

const band = (minPrice: string, maxPrice: string, percentage = "0.05") => ({ minPrice: new Decimal(minPrice), maxPrice: new Decimal(maxPrice), percentage: new Decimal(percentage) });
const messages = (bands: ReturnType<typeof band>[]) => checkSurchargeBands(bands).map((problem) => problem.message);

describe("checkSurchargeBands", () => {
  it("accepts the seeded chain, one band, and no bands at all", () => {
    expect(checkSurchargeBands(seededBands.map((seeded) => band(seeded.minPrice, seeded.maxPrice, seeded.percentage)))).toEqual([]);
    expect(checkSurchargeBands([band("250.00", "500.00")])).toEqual([]);
    expect(checkSurchargeBands([])).toEqual([]);
  });

  it("lets bands meet at one amount, in any order given, as checkout joins them", () => {
    const chain = [band("500.00", "1000.00"), band("0.00", "100.00", "0"), band("100.00", "500.00", "0.02")];
    expect(checkSurchargeBands(chain)).toEqual([]);
    // Checkout at the shared amount takes the higher band: the one that starts there.
    expect(surchargeBandFor(chain, new Decimal("500.00"))?.minPrice.toFixed(2)).toBe("500.00");
    expect(surchargeBandFor(chain, new Decimal("499.99"))?.minPrice.toFixed(2)).toBe("100.00");
  });

  it("refuses overlapping bands, naming both", () => {
    expect(messages([band("500.00", "1000.00"), band("800.00", "2000.00")])).toEqual(["€500.00–€1,000.00 overlaps €800.00–€2,000.00"]);
    const problems = checkSurchargeBands([band("800.00", "2000.00"), band("500.00", "1000.00")]);
    expect(problems).toEqual([{ kind: "OVERLAP", band: 0, field: "minPrice", message: "€500.00–€1,000.00 overlaps €800.00–€2,000.00" }]);
  });

  it("refuses a band inside another, and two bands with the same minimum", () => {
    expect(messages([band("0.00", "1000.00"), band("200.00", "300.00")])).toEqual(["€0.00–€1,000.00 overlaps €200.00–€300.00"]);
    expect(messages([band("100.00", "200.00"), band("100.00", "300.00")])).toEqual(["€100.00–€200.00 overlaps €100.00–€300.00"]);
  });

  it("reports each pair a wide band overlaps", () => {
    expect(messages([band("0.00", "100.00"), band("100.00", "200.00"), band("50.00", "500.00")])).toEqual([
      "€0.00–€100.00 overlaps €50.00–€500.00",
      "€50.00–€500.00 overlaps €100.00–€200.00",
    ]);
  });

  it("refuses a gap between two bands, naming what nothing covers", () => {
    const problems = checkSurchargeBands([band("0.00", "1000.00"), band("1200.00", "2000.00")]);
    expect(problems).toEqual([
      { kind: "GAP", band: 1, field: "minPrice", message: "Nothing covers €1,000.00–€1,200.00 between two bands; a band starts where the one before it ends" },
    ]);
    // A cent between two bands is a gap too: a band starts exactly where the one before it ends.
    expect(messages([band("0.00", "99.99"), band("100.00", "250.00")])).toEqual(["Nothing covers €99.99–€100.00 between two bands; a band starts where the one before it ends"]);
  });

  it("measures a gap from the furthest band so far", () => {
    // 0–1000 reaches past 100–200, so 1000–1500 follows on from it without a gap.
    expect(messages([band("0.00", "1000.00"), band("100.00", "200.00"), band("1000.00", "1500.00")])).toEqual(["€0.00–€1,000.00 overlaps €100.00–€200.00"]);
  });

  it("refuses a band whose maximum is not above its minimum, and leaves it out of the chain", () => {
    expect(checkSurchargeBands([band("0.00", "100.00"), band("100.00", "100.00")])).toEqual([
      { kind: "EMPTY_RANGE", band: 1, field: "maxPrice", message: "€100.00–€100.00: the maximum must be more than the minimum" },
    ]);
    expect(messages([band("500.00", "100.00")])).toEqual(["€500.00–€100.00: the maximum must be more than the minimum"]);
  });

  it("takes percentages from 0% to 100%", () => {
    expect(checkSurchargeBands([band("0.00", "100.00", "0"), band("100.00", "200.00", "1")])).toEqual([]);
    expect(messages([band("0.00", "100.00", "1.0001")])).toEqual(["€0.00–€100.00: the surcharge must be at most 100%"]);
    expect(messages([band("0.00", "100.00", "-0.01")])).toEqual(["€0.00–€100.00: the surcharge must not be negative"]);
  });

  it("names bands and percentages as staff type them", () => {
    expect(bandRange(band("1000", "1234.5"))).toBe("€1,000.00–€1,234.50");
    expect(percentOf(new Decimal("0.035"))).toBe("3.5%");
    expect(percentOf(new Decimal("0.0500"))).toBe("5%");
  });
});

describe("the band schemas", () => {
  it("read amounts and percentages as typed, the percentage as a fraction", () => {
    const parsed = surchargeBandInput.parse({ minPrice: "500", maxPrice: "1000,50", percentage: "3,5" });
    expect([parsed.minPrice.toFixed(2), parsed.maxPrice.toFixed(2), parsed.percentage.toFixed(4)]).toEqual(["500.00", "1000.50", "0.0350"]);
    expect(surchargeBandInput.parse({ minPrice: "0", maxPrice: "100", percentage: "0" }).percentage.isZero()).toBe(true);
  });

  it("refuses each field with its own message", () => {
    const refusal = surchargeBandInput.safeParse({ minPrice: "-1", maxPrice: "abc", percentage: "101" });
    expect(refusal.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["minPrice", "must be an amount in euros, like 49.95"],
      ["maxPrice", "must be an amount in euros, like 49.95"],
      ["percentage", "must be from 0 to 100"],
    ]);
    expect(surchargeBandInput.safeParse({ minPrice: "100", maxPrice: "100", percentage: "5" }).error?.issues).toMatchObject([{ path: ["maxPrice"], message: "must be more than the minimum" }]);
  });

  it("puts the set rule on the field of the band it belongs to", () => {
    const refusal = saveSurchargeBandsInput.safeParse({
      version: "v",
      bands: [
        { id: 1, minPrice: "0", maxPrice: "100", percentage: "0" },
        { minPrice: "150", maxPrice: "300", percentage: "2" },
        { id: 2, minPrice: "250", maxPrice: "500", percentage: "3.5" },
      ],
    });
    expect(refusal.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["bands.2.minPrice", "€150.00–€300.00 overlaps €250.00–€500.00"],
      ["bands.1.minPrice", "Nothing covers €100.00–€150.00 between two bands; a band starts where the one before it ends"],
    ]);
    expect(saveSurchargeBandsInput.safeParse({ version: "v", bands: [{ id: 1, minPrice: "0", maxPrice: "1", percentage: "1" }, { id: 1, minPrice: "1", maxPrice: "2", percentage: "1" }] }).success).toBe(false);
  });
});
