import { describe, expect, it } from "vitest";
import { dutchPublicHoliday, dutchPublicHolidays, dutchPublicHolidaysBetween, easterSunday } from "./dutch-holidays";

describe("Easter Sunday", () => {
  it.each([
    [1818, "1818-03-22"], // the earliest it can be
    [1943, "1943-04-25"], // the latest it can be
    [2000, "2000-04-23"],
    [2008, "2008-03-23"],
    [2019, "2019-04-21"],
    [2024, "2024-03-31"],
    [2025, "2025-04-20"],
    [2026, "2026-04-05"],
    [2027, "2027-03-28"],
    [2038, "2038-04-25"],
    [2285, "2285-03-22"],
  ])("falls in %i on %s", (year, day) => {
    expect(easterSunday(year)).toBe(day);
  });
});

describe("the Dutch public holidays on which nothing ships", () => {
  it("are the seven PostNL keeps, in 2027", () => {
    expect(dutchPublicHolidays(2027)).toEqual([
      { date: "2027-01-01", name: "New Year's Day" },
      { date: "2027-03-29", name: "Easter Monday" },
      { date: "2027-04-27", name: "King's Day" },
      { date: "2027-05-06", name: "Ascension Day" },
      { date: "2027-05-17", name: "Whit Monday" },
      { date: "2027-12-25", name: "Christmas Day" },
      { date: "2027-12-26", name: "Boxing Day" },
    ]);
  });

  it("move King's Day to Saturday the 26th when the 27th is a Sunday", () => {
    expect(dutchPublicHoliday("2025-04-26")).toBe("King's Day");
    expect(dutchPublicHoliday("2025-04-27")).toBeNull();
    expect(dutchPublicHoliday("2026-04-27")).toBe("King's Day");
  });

  it("name Christmas on Friday 25 December 2026, and leave Good Friday and Liberation Day to closing days", () => {
    expect(dutchPublicHoliday("2026-12-25")).toBe("Christmas Day");
    expect(dutchPublicHoliday("2027-03-26")).toBeNull();
    expect(dutchPublicHoliday("2030-05-05")).toBeNull();
    expect(dutchPublicHoliday("2026-12-24")).toBeNull();
  });

  it("are listed across a new year", () => {
    expect(dutchPublicHolidaysBetween("2026-12-20", "2027-01-10").map((h) => h.date)).toEqual(["2026-12-25", "2026-12-26", "2027-01-01"]);
  });
});
