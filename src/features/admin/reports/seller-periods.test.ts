import { describe, expect, it } from "vitest";
import { currentPeriod, periodOptions } from "./seller-periods";

describe("the sellers report's periods", () => {
  const today = new Date(2026, 1, 14); // 14 February 2026

  it("lists months, quarters and years newest first, the current one so far, in the report's format", () => {
    expect(periodOptions("month", today).slice(0, 3)).toEqual([
      { value: "2026-02", label: "February 2026 · so far" },
      { value: "2026-01", label: "January 2026" },
      { value: "2025-12", label: "December 2025" },
    ]);
    expect(periodOptions("month", today)).toHaveLength(36);
    expect(periodOptions("quarter", today).slice(0, 3)).toEqual([
      { value: "2026-Q1", label: "Q1 2026 (Jan–Mar) · so far" },
      { value: "2025-Q4", label: "Q4 2025 (Oct–Dec)" },
      { value: "2025-Q3", label: "Q3 2025 (Jul–Sept)" },
    ]);
    expect(periodOptions("year", today).map((option) => option.value).slice(0, 3)).toEqual(["2026", "2025", "2024"]);
  });

  it("opens on the current period of each kind", () => {
    expect([currentPeriod("month", today), currentPeriod("quarter", today), currentPeriod("year", today)]).toEqual(["2026-02", "2026-Q1", "2026"]);
    expect(currentPeriod("quarter", new Date(2026, 11, 31))).toBe("2026-Q4");
  });
});
