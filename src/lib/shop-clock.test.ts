import { describe, expect, it } from "vitest";
import { shopWallTime, wallTimeDay, wallTimeText } from "./shop-clock";

describe("the shop's clock", () => {
  it.each([
    // Winter time (UTC+1), summer time (UTC+2), and the nights the clocks change.
    ["2026-01-15T08:00:00Z", "2026-01-15T09:00"],
    ["2026-06-30T22:00:00Z", "2026-07-01T00:00"],
    ["2026-03-29T00:30:00Z", "2026-03-29T01:30"],
    ["2026-03-29T01:30:00Z", "2026-03-29T03:30"],
    ["2026-10-25T02:30:00Z", "2026-10-25T03:30"],
    // New Year's Eve in UTC is already next year in Amsterdam.
    ["2025-12-31T23:30:00Z", "2026-01-01T00:30"],
  ])("shows %s as %s in Amsterdam", (instant, shown) => {
    const wall = shopWallTime(new Date(instant));
    expect(wallTimeText(wall)).toBe(shown);
    expect(wallTimeDay(wall)).toBe(shown.slice(0, 10));
  });

  it("counts hours from 0 to 23", () => {
    expect(shopWallTime(new Date("2026-01-15T23:00:00Z")).hour).toBe(0);
    expect(shopWallTime(new Date("2026-01-15T22:59:00Z"))).toMatchObject({ day: 15, hour: 23, minute: 59 });
  });
});
