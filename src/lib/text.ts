import { z } from "zod";

/**
 * Text a caller sends that the shop stores, searches or logs. PostgreSQL's text cannot hold the NUL character and
 * its JSON (the logbook's states) cannot hold half of a UTF-16 surrogate pair, so either is a BAD_REQUEST here
 * instead of a database error later (SECURITY-REVIEW M2). Chain the usual checks after it: `text().trim().max(80)`.
 */
export function text() {
  return z.string().refine((value) => !value.includes("\u0000") && value.isWellFormed(), "contains a character that cannot be stored");
}

/**
 * What cannot be in one line of print: line breaks and every other control character (`\p{Cc}`: tab, carriage
 * return, NEL among them), the Unicode line and paragraph separators, and the bidirectional embeddings, overrides
 * and isolates, which make a line print in another order than it was typed (U+202A–202E, U+2066–2069).
 */
const notOfOneLine = "\\p{Cc}\\u2028\\u2029\\u202A-\\u202E\\u2066-\\u2069";
const notOfOneLineOnce = new RegExp(`[${notOfOneLine}]`, "u");
const notOfOneLineRuns = new RegExp(`[${notOfOneLine}]+`, "gu");

/**
 * One field of what goes onto a label, packing slip or invoice (a name, a street, a city): one line. A line break in
 * it would print as lines of its own, which read as the document's own words ("ITEMS TO PACK: …" under the
 * address), and carriers refuse or misroute such addresses (SECURITY-REVIEW N-M5). Trimmed first, so a line break
 * pasted at either end is simply dropped; one within is refused, naming the field. Chain the usual checks after it.
 */
export function lineText(label: string) {
  return text()
    .trim()
    .refine((value) => !notOfOneLineOnce.test(value), `${label} must be one line: no line breaks, tabs or other control characters`);
}

/**
 * A field on one line as documents and carriers are given it: each run of what `lineText` refuses becomes one space.
 * For text stored before the rule, and for what the shop cannot refuse (an address imported from eBay).
 */
export function oneLine(value: string): string;
export function oneLine(value: string | null): string | null;
export function oneLine(value: string | null): string | null {
  return value === null ? null : value.replace(notOfOneLineRuns, " ").trim();
}
