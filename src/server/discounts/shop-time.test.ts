import { describe, expect, it } from "vitest";
import { dateToShopDateTime, formatShopDateTime, isShopDateTime, shopDateTimeToDate } from "./shop-time";

describe("a discount's dates in the shop's time zone", () => {
  it.each([
    ["2026-01-15T09:00", "2026-01-15T08:00:00.000Z"],
    ["2026-07-01T00:00", "2026-06-30T22:00:00.000Z"],
    // The night the clocks go forward: 01:30 is still winter time, 03:30 summer time.
    ["2026-03-29T01:30", "2026-03-29T00:30:00.000Z"],
    ["2026-03-29T03:30", "2026-03-29T01:30:00.000Z"],
    // The night they go back: 03:30 is winter time again.
    ["2026-10-25T03:30", "2026-10-25T02:30:00.000Z"],
  ])("reads %s as %s and back", (typed, instant) => {
    const date = shopDateTimeToDate(typed);
    expect(date.toISOString()).toBe(instant);
    expect(dateToShopDateTime(date)).toBe(typed);
  });

  it("takes only real dates and times", () => {
    expect(isShopDateTime("2026-02-28T23:59")).toBe(true);
    expect(isShopDateTime("2026-02-30T10:00")).toBe(false);
    expect(isShopDateTime("2026-05-04T24:00")).toBe(false);
    expect(isShopDateTime("2026-05-04 09:00")).toBe(false);
  });

  it("shows a moment as staff read it", () => {
    expect(formatShopDateTime(new Date("2026-05-04T07:00:00Z"))).toBe("4 May 2026, 09:00");
  });
});
