import type { Decimal } from "decimal.js";

const peso = new Intl.NumberFormat("en-PH", { style: "currency", currency: "PHP", minimumFractionDigits: 2, maximumFractionDigits: 2 });
const dateTime = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
const dateTimeWithYear = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit" });
const date = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric" });
const integer = new Intl.NumberFormat("en-IE");

export function formatPeso(amount: Decimal): string {
  return peso.format(amount.toNumber());
}

/** "4 May, 14:03" this year, with the year otherwise. */
export function formatDateTime(value: Date): string {
  return (value.getFullYear() === new Date().getFullYear() ? dateTime : dateTimeWithYear).format(value);
}

const dateThisYear = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short" });

/** "4 May" this year, "4 May 2025" otherwise. */
export function formatDate(value: Date | string): string {
  const day = typeof value === "string" ? new Date(`${value}T00:00:00`) : value;
  return (day.getFullYear() === new Date().getFullYear() ? dateThisYear : date).format(day);
}

export function formatCount(value: number): string {
  return integer.format(value);
}

/** An enum value as words: PAID_READY_TO_SHIP -> "Paid ready to ship". */
export function humanize(value: string): string {
  const words = value.toLowerCase().replaceAll("_", " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** "1 piece", "3 pieces". */
export function formatPieces(count: number): string {
  return `${count} piece${count === 1 ? "" : "s"}`;
}

const monthLabel = new Intl.DateTimeFormat("en-GB", { month: "short", year: "numeric", timeZone: "UTC" });

/** "2026-03" as "Mar 2026". */
export function formatMonth(month: string): string {
  return monthLabel.format(new Date(`${month}-01T00:00:00Z`));
}

const wholeEuro = new Intl.NumberFormat("en-IE", { style: "currency", currency: "EUR", maximumFractionDigits: 0 });

/** An amount in whole euros, for a month's table that must fit beside eleven other columns (the CSV has the cents). */
export function formatWholeEuro(value: Decimal): string {
  return wholeEuro.format(value.toDecimalPlaces(0, 4).toNumber());
}
