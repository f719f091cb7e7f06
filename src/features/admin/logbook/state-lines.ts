import { formatEuro } from "@/lib/money";
import type { JsonValue } from "@/server/logbook/schemas";

/** One line of a logbook entry's details: a field, what it was and what it became. */
export type StateLine = { key: string; before: string | null; after: string | null; changed: boolean };

type JsonObject = { [key: string]: JsonValue };

const isObject = (value: JsonValue | null | undefined): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value);

// Amounts are stored as their text ("12.00"); a field named for money reads in euros. A discount's bare `value`
// may be a percentage, so only names that can only be money count.
const MONEY_KEY = /(?:^|[a-z])(?:price|cost|total|amount|fee|Price|Cost|Total|Amount|Fee)$|^maxOrderUntracked$/;
const DECIMAL = /^-?\d+(?:\.\d+)?$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/;
const timeFormat = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", timeZone: "Europe/Amsterdam" });

/** A stored value as a person reads it: euros for money, a date and time for a timestamp, yes/no, lists with commas. */
export function readableValue(key: string, value: JsonValue): string {
  if (value === null) return "none";
  if (typeof value === "boolean") return value ? "yes" : "no";
  const leaf = key.split(".").at(-1) ?? key;
  if ((typeof value === "string" || typeof value === "number") && MONEY_KEY.test(leaf) && DECIMAL.test(String(value))) return formatEuro(String(value));
  if (typeof value === "string") return ISO_TIME.test(value) ? timeFormat.format(new Date(value)) : value;
  if (typeof value === "number") return String(value);
  if (Array.isArray(value)) return value.length === 0 ? "none" : value.every((item) => !isObject(item) && !Array.isArray(item)) ? value.map((item) => readableValue(key, item)).join(", ") : JSON.stringify(value);
  return JSON.stringify(value);
}

/** A state's fields, nested objects as dotted keys (address.city), in their stored order. */
function fieldsOf(state: JsonValue | null, prefix = ""): Map<string, JsonValue> {
  const fields = new Map<string, JsonValue>();
  if (!isObject(state)) {
    if (state !== null) fields.set(prefix || "value", state);
    return fields;
  }
  for (const [key, value] of Object.entries(state)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (isObject(value) && Object.keys(value).length > 0) for (const [nested, inner] of fieldsOf(value, path)) fields.set(nested, inner);
    else fields.set(path, value);
  }
  return fields;
}

/**
 * A logbook entry's previous and new state as lines a person reads ("price: €10.00 → €12.00"): every field of
 * either state, what changed first, in the order the states name them. A field only one state has reads "none"
 * on the other side.
 */
export function stateLines(previous: JsonValue | null, next: JsonValue | null): StateLine[] {
  const before = fieldsOf(previous);
  const after = fieldsOf(next);
  const keys = [...new Set([...before.keys(), ...after.keys()])];
  const lines = keys.map((key): StateLine => {
    const was = before.has(key) ? readableValue(key, before.get(key)!) : null;
    const is = after.has(key) ? readableValue(key, after.get(key)!) : null;
    const changed = previous !== null && next !== null ? JSON.stringify(before.get(key) ?? null) !== JSON.stringify(after.get(key) ?? null) : true;
    return { key, before: was, after: is, changed };
  });
  return [...lines.filter((line) => line.changed), ...lines.filter((line) => !line.changed)];
}

/** One line as text: "price: €10.00 → €12.00", "status: PAID" when it did not change or only one side is known. */
export function stateLineText(line: StateLine): string {
  if (line.before === null) return `${line.key}: ${line.after ?? "none"}`;
  if (line.after === null) return `${line.key}: ${line.before} → none`;
  return line.changed ? `${line.key}: ${line.before} → ${line.after}` : `${line.key}: ${line.after}`;
}
