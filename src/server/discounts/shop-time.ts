import { SHOP_TIME_ZONE, shopWallTime, wallTimeText, type WallTime } from "@/lib/shop-clock";

/**
 * A discount's dates as staff type and read them: wall-clock time in the shop's time zone ("2026-05-04T09:00", a
 * datetime-local field), stored as the instant it names. Pure, so the form's schema and the server read a typed date
 * alike; the browser's own time zone never comes into it.
 */

/** How a moment is typed: a date and a time to the minute, as a datetime-local field gives it. */
export const SHOP_DATE_TIME_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

const asUtc = (wall: WallTime) => Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);

/** The typed text's parts when it is a real date and time ("2026-02-30T10:00" is not), else null. */
function parseWallTime(typed: string): WallTime | null {
  const match = SHOP_DATE_TIME_PATTERN.exec(typed);
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [number, number, number, number, number];
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59) return null;
  return { year, month, day, hour, minute };
}

/** Whether the text is a real date and time in the typed form. */
export function isShopDateTime(typed: string): boolean {
  return parseWallTime(typed) !== null;
}

/**
 * The instant a wall-clock time in the shop's time zone names. The zone's offset is read at a first guess and again
 * at the answer, which settles the days the clocks change; a time the spring change skips (02:30 on its night) is
 * read an hour later, as clocks show it.
 */
export function shopDateTimeToDate(typed: string): Date {
  const wall = parseWallTime(typed);
  if (!wall) throw new Error(`Not a date and time: ${typed}`);
  const target = asUtc(wall);
  const offsetAt = (instant: number) => asUtc(shopWallTime(new Date(instant))) - instant;
  const first = target - offsetAt(target);
  const second = target - offsetAt(first);
  return new Date(second);
}

/** An instant as staff type and read it in the shop's time zone: "2026-05-04T09:00". */
export function dateToShopDateTime(instant: Date): string {
  return wallTimeText(shopWallTime(instant));
}

const shown = new Intl.DateTimeFormat("en-GB", { timeZone: SHOP_TIME_ZONE, day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });

/** An instant as the back office shows a discount's dates, in the shop's time zone: "4 May 2026, 09:00". */
export function formatShopDateTime(instant: Date): string {
  return shown.format(instant);
}
