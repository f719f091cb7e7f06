/** Lengths of time in milliseconds, for the seed's dates, which it sets relative to `now`. */
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
