import { describe, expect, it } from "vitest";
import { untilNextNight } from "./reconciliation";

describe("the nightly stock ledger check", () => {
  it("waits until three in the night for the next round", () => {
    expect(untilNextNight(new Date(2025, 5, 4, 1, 0))).toBe(2 * 3_600_000);
    expect(untilNextNight(new Date(2025, 5, 4, 3, 0))).toBe(24 * 3_600_000);
    expect(untilNextNight(new Date(2025, 5, 4, 22, 30))).toBe(4.5 * 3_600_000);
  });
});
