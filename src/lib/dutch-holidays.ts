/**
 * The Dutch public holidays on which PostNL neither collects nor delivers, so the shop sends nothing out: New Year's
 * Day, Easter Monday, King's Day, Ascension Day, Whit Monday, Christmas Day and Boxing Day. Good Friday and
 * Liberation Day (5 May) are left out: PostNL collects and delivers on both, also in the lustrum years when many have
 * 5 May off; a shop that closes then adds a closing day. Easter Sunday and Whit Sunday fall on a Sunday, when nothing
 * ships anyway. Pure, so the shipping calendar's rules and its page read the same days.
 */

export type PublicHoliday = { date: string; name: string };

const two = (value: number) => String(value).padStart(2, "0");
const isoDay = (year: number, month: number, day: number) => `${year}-${two(month)}-${two(day)}`;

/** YYYY-MM-DD a number of days from a day. */
function plusDays(day: string, days: number): string {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** Easter Sunday of a Gregorian year (YYYY-MM-DD), by the anonymous Gregorian algorithm (Meeus/Jones/Butcher). */
export function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return isoDay(year, month, day);
}

/** The year's public holidays on which nothing ships, in date order. */
export function dutchPublicHolidays(year: number): PublicHoliday[] {
  const easter = easterSunday(year);
  // King's Day is 27 April, or Saturday the 26th when the 27th is a Sunday.
  const kingsDaySunday = new Date(Date.UTC(year, 3, 27)).getUTCDay() === 0;
  return [
    { date: isoDay(year, 1, 1), name: "New Year's Day" },
    { date: plusDays(easter, 1), name: "Easter Monday" },
    { date: isoDay(year, 4, kingsDaySunday ? 26 : 27), name: "King's Day" },
    { date: plusDays(easter, 39), name: "Ascension Day" },
    { date: plusDays(easter, 50), name: "Whit Monday" },
    { date: isoDay(year, 12, 25), name: "Christmas Day" },
    { date: isoDay(year, 12, 26), name: "Boxing Day" },
  ].sort((x, y) => x.date.localeCompare(y.date));
}

/** The public holiday a day (YYYY-MM-DD) is, or null. */
export function dutchPublicHoliday(day: string): string | null {
  return dutchPublicHolidays(Number(day.slice(0, 4))).find((holiday) => holiday.date === day)?.name ?? null;
}

/** The public holidays from one day to another (both YYYY-MM-DD, inclusive). */
export function dutchPublicHolidaysBetween(from: string, to: string): PublicHoliday[] {
  const holidays: PublicHoliday[] = [];
  for (let year = Number(from.slice(0, 4)); year <= Number(to.slice(0, 4)); year++) holidays.push(...dutchPublicHolidays(year));
  return holidays.filter((holiday) => holiday.date >= from && holiday.date <= to);
}
