/**
 * The shop's clock: its time zone and the wall-clock time in it. The post's cut-off and shipping days, a discount's
 * start and end, invoice years and the dates documents print all follow the shop's time, never the server's or the
 * browser's.
 */

/** The shop's time zone. */
export const SHOP_TIME_ZONE = "Europe/Amsterdam";

/** A wall-clock time, to the minute. */
export type WallTime = { year: number; month: number; day: number; hour: number; minute: number };

const wallClock = new Intl.DateTimeFormat("en-CA", {
  timeZone: SHOP_TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});

/** What the shop's clocks show at an instant. */
export function shopWallTime(instant: Date): WallTime {
  const parts = Object.fromEntries(wallClock.formatToParts(instant).map((part) => [part.type, part.value]));
  return { year: Number(parts.year), month: Number(parts.month), day: Number(parts.day), hour: Number(parts.hour), minute: Number(parts.minute) };
}

const two = (value: number) => String(value).padStart(2, "0");

/** A wall time's day, YYYY-MM-DD. */
export function wallTimeDay(wall: WallTime): string {
  return `${wall.year}-${two(wall.month)}-${two(wall.day)}`;
}

/** The `count` shop-time months up to the one `now` falls in, oldest first, as "YYYY-MM". */
export function shopMonthsUpTo(now: Date, count: number): string[] {
  const { year, month } = shopWallTime(now);
  const months: string[] = [];
  for (let back = count - 1; back >= 0; back--) {
    const index = year * 12 + (month - 1) - back;
    months.push(`${Math.floor(index / 12)}-${two((index % 12) + 1)}`);
  }
  return months;
}

/** A wall time's day and time as a datetime-local field holds it: "2026-05-04T09:00". */
export function wallTimeText(wall: WallTime): string {
  return `${wallTimeDay(wall)}T${two(wall.hour)}:${two(wall.minute)}`;
}
