import type { Decimal } from "decimal.js";

// The accountant's CSV files (the paid orders, the owner's reports): cells as RFC 4180 wants them, safe to open in a
// spreadsheet.

/**
 * A text cell as RFC 4180 wants it, made inert for spreadsheets: text starting with = + - @ (or a tab or carriage
 * return) would be run as a formula when the file is opened, so it is prefixed with an apostrophe, which
 * spreadsheets show as text. A cell with a comma, a quote or a line break is quoted, its quotes doubled.
 */
export function csvText(value: string): string {
  const inert = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(inert) ? `"${inert.replaceAll('"', '""')}"` : inert;
}

/** An amount with a dot and two decimals, whatever the locale; empty when unknown. */
export const csvAmount = (value: Decimal | null) => (value === null ? "" : value.toFixed(2));

export function csvLine(cells: string[]): string {
  return `${cells.join(",")}\r\n`;
}

/** The first line of a file: a byte order mark, so that spreadsheet programs read names as UTF-8, then the headings. */
export function csvHeader(columns: string[]): string {
  return `\uFEFF${csvLine(columns)}`;
}
