import { Decimal } from "decimal.js";
import fc from "fast-check";

/**
 * Test input made from a procedure's own zod 4 schema, so that a procedure or field added later is probed without
 * anyone writing cases for it (tests/integration/bad-input.test.ts).
 *
 * - `fitting(schema)`: shaped as the schema asks and meant to pass it, at its edges: the smallest and largest
 *   number and id, text of the longest length allowed, text PostgreSQL cannot store (a NUL character), LIKE and
 *   escape characters, arrays at their longest and with repeats. What passes here reaches the services.
 * - `unfitting(schema)`: shaped like the schema with something wrong: a number just outside its range or past
 *   PostgreSQL's int4, a fraction where a whole number belongs, text one over the limit or far over it, a wrong type
 *   in one field, a key missing, a key added, the whole value of another kind.
 * - `junk`: anything at all, including what only superjson carries (undefined, NaN, Date, Map, Set, BigInt).
 *
 * Only the schema kinds the shop's procedures use are walked (object, string, number, boolean, enum, literal, array,
 * optional, nullable, default, union, pipe and transform, coerce, instanceof Decimal, lazy); any other kind gets junk.
 * Whether a value really passes is for the caller to ask the schema: this only aims.
 */

type Check = { _zod: { def: { check: string } & Record<string, unknown> } };
type Def = { type: string; checks?: Check[] } & Record<string, unknown>;
type Schema = { _zod: { def: Def; bag: Record<string, unknown> } };

export type ArbitraryOptions = {
  /** Text that names seeded rows (a coupon code, a product's name), so that valid-looking text sometimes finds one. */
  words?: readonly string[];
};

const INT4_MAX = 2_147_483_647;
/** Deeper than any input of the shop; a lazy schema that nests further gets junk there. */
const MAX_DEPTH = 6;
const HUGE_TEXT = "x".repeat(100_000);

/** Text that has broken shops before: NUL (PostgreSQL refuses it), escape and LIKE characters, markup, paths. */
const trickyText = ["\u0000", "a\u0000b", "\\", "abc\\", "%", "_", "'", "' OR '1'='1", '"; DROP TABLE "user"; --', "<script>alert(1)</script>", "../../etc/passwd", "\u202e", "\ud800", "😀", " ", "null", "NaN", "-1", "9999999999", "1e309"];

export const junk: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.anything({ maxDepth: 3, withBigInt: true, withDate: true, withMap: true, withSet: true }),
  fc.constantFrom<unknown>(
    undefined, null, NaN, Infinity, -Infinity, -0, 9999999999, -1, 2 ** 31, Number.MAX_VALUE, "", "\u0000", HUGE_TEXT,
    new Decimal("NaN"), new Decimal("-1e30"), new Date(Number.NaN),
    JSON.parse('{"__proto__":{"role":"ADMIN"},"constructor":{"prototype":{"role":"ADMIN"}}}'),
  ),
);

/** Mostly fitting, often unfitting, sometimes junk: what the bad-input test sends. */
export function badInput(schema: unknown, options: ArbitraryOptions = {}): fc.Arbitrary<unknown> {
  return fc.oneof(
    { arbitrary: fitting(schema, options), weight: 2 },
    { arbitrary: unfitting(schema, options), weight: 2 },
    { arbitrary: junk, weight: 1 },
  );
}

export function fitting(schema: unknown, options: ArbitraryOptions = {}, depth = 0): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  if (!def || depth > MAX_DEPTH) return junk;
  const inner = (key: string) => fitting(def[key], options, depth + 1);
  switch (def.type) {
    case "string":
      return fittingString(def, options);
    case "number":
      return fittingNumber(def);
    case "boolean":
      return fc.boolean();
    case "enum":
      return fc.constantFrom(...Object.values(def.entries as Record<string, string | number>));
    case "literal":
      return fc.constantFrom(...(def.values as unknown[]));
    case "array": {
      const { min = 0, max } = lengthBounds(def);
      const element = fitting(def.element, options, depth + 1);
      const longest = Math.min(max ?? 5, 500);
      return fc.oneof(
        fc.array(element, { minLength: min, maxLength: Math.max(min, Math.min(longest, 5)) }),
        fc.array(element, { minLength: longest, maxLength: longest }),
        // The same entry again and again: a cart line twice, an id marked read twice.
        fc.tuple(element, fc.integer({ min: Math.max(min, 2), max: Math.max(min, 2, longest) })).map(([entry, count]) => Array.from({ length: count }, () => entry)),
      );
    }
    case "object":
      return fc.record(Object.fromEntries(Object.entries(def.shape as Record<string, unknown>).map(([key, field]) => [key, fitting(field, options, depth + 1)])));
    case "optional":
    case "default":
    case "prefault":
      return fc.oneof(fc.constant(undefined), inner("innerType"));
    case "nullable":
      return fc.oneof(fc.constant(null), inner("innerType"));
    case "readonly":
    case "catch":
    case "nonoptional":
      return inner("innerType");
    case "union":
      return fc.oneof(...(def.options as unknown[]).map((option) => fitting(option, options, depth + 1)));
    case "pipe":
      return pipeSide(def) === "in" ? inner("in") : fc.oneof(inner("in"), inner("out"));
    case "lazy":
      return fitting((def.getter as () => unknown)(), options, depth + 1);
    case "custom":
      return instanceClass(schema) === Decimal ? fc.constantFrom(new Decimal("0"), new Decimal("12.50"), new Decimal("9999999999.99"), new Decimal("0.001")) : junk;
    default:
      return junk;
  }
}

export function unfitting(schema: unknown, options: ArbitraryOptions = {}, depth = 0): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  if (!def || depth > MAX_DEPTH) return junk;
  const inner = (key: string) => unfitting(def[key], options, depth + 1);
  const otherKind = fc.constantFrom<unknown>(null, true, 1, "1", [], {});
  switch (def.type) {
    case "string": {
      const { min = 0, max, exact } = lengthBounds(def);
      const [shortest, longest] = [exact ?? min, exact ?? max];
      const wrongText = [HUGE_TEXT, ...(longest === undefined ? [] : ["x".repeat(longest + 1)]), ...(shortest > 0 ? ["x".repeat(shortest - 1)] : [])];
      return fc.oneof(fc.constantFrom(...wrongText), fc.string({ unit: "binary", maxLength: 30 }), otherKind);
    }
    case "number": {
      const { min, max, int } = numberBounds(def);
      const outside = [...(min === undefined ? [] : [min - 1]), ...(max === undefined ? [] : [max + 1]), ...(int ? [1.5, INT4_MAX + 1, 9999999999] : [])];
      return fc.constantFrom<unknown>(...outside, NaN, Infinity, -Infinity, 2 ** 53 + 2, "1", "abc", "", null, true, [], {});
    }
    case "boolean":
      return fc.constantFrom<unknown>("true", "false", 1, 0, null, "");
    case "enum": {
      const values = Object.values(def.entries as Record<string, string | number>);
      return fc.constantFrom<unknown>(...values.map((value) => String(value).toLowerCase() + " "), "", "UNKNOWN_VALUE", 0, null);
    }
    case "literal":
      return fc.constantFrom<unknown>(...(def.values as unknown[]).map((value) => (typeof value === "number" ? value + 1 : `${String(value)}x`)), null);
    case "array": {
      const { min, max } = lengthBounds(def);
      const element = fitting(def.element, options, depth + 1);
      return fc.oneof(
        max === undefined ? otherKind : fc.array(element, { minLength: max + 1, maxLength: max + 1 }),
        min ? fc.array(element, { maxLength: min - 1 }) : otherKind,
        fc.tuple(fc.array(element, { maxLength: 3 }), unfitting(def.element, options, depth + 1)).map(([entries, wrong]) => [...entries, wrong]),
        fc.dictionary(fc.constantFrom("0", "1", "length"), element),
        otherKind,
      );
    }
    case "object":
      return unfittingObject(def, options, depth, otherKind);
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "readonly":
    case "catch":
    case "nonoptional":
      return inner("innerType");
    case "union":
      return fc.oneof(...(def.options as unknown[]).map((option) => unfitting(option, options, depth + 1)));
    case "pipe":
      return pipeSide(def) === "in" ? inner("in") : fc.oneof(inner("in"), inner("out"));
    case "lazy":
      return unfitting((def.getter as () => unknown)(), options, depth + 1);
    case "custom":
      return instanceClass(schema) === Decimal ? fc.constantFrom<unknown>(new Decimal("-1"), new Decimal("NaN"), new Decimal("1e400"), "12.50", 12.5) : junk;
    default:
      return junk;
  }
}

function unfittingObject(def: Def, options: ArbitraryOptions, depth: number, otherKind: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const shape = def.shape as Record<string, unknown>;
  const keys = Object.keys(shape);
  const whole = fitting({ _zod: { def } }, options, depth) as fc.Arbitrary<Record<string, unknown>>;
  const variants: fc.Arbitrary<unknown>[] = [
    // Extra keys: a strict object refuses them, the others must ignore them (and never take a role or a user from them).
    fc.tuple(whole, fc.constantFrom("extra", "__proto__", "constructor", "role", "userId", "price"), junk).map(([value, key, extra]) => ({ ...value, [key]: extra })),
    otherKind,
  ];
  if (keys.length > 0) {
    variants.push(
      // One field wrong, the rest fitting: the refusal must name that field, not fail further in.
      fc.tuple(whole, fc.constantFrom(...keys)).chain(([value, key]) => unfitting(shape[key], options, depth + 1).map((wrong) => ({ ...value, [key]: wrong }))),
      fc.tuple(whole, fc.constantFrom(...keys)).map(([value, key]) => Object.fromEntries(Object.entries(value).filter(([name]) => name !== key))),
    );
  }
  return fc.oneof(...variants);
}

function fittingString(def: Def, options: ArbitraryOptions): fc.Arbitrary<string> {
  const { min = 0, max, exact } = lengthBounds(def);
  const pattern = stringPattern(def);
  const fits = (text: string) => (exact === undefined || text.length === exact) && text.length >= min && (max === undefined || text.length <= max);
  const edges = [...trickyText, ...(options.words ?? [])].filter(fits);
  const longest = exact ?? max;
  if (longest !== undefined && longest > 0) edges.push("x".repeat(longest), "é".repeat(longest), "😀".repeat(Math.floor(longest / 2)));
  if (longest === undefined) edges.push(HUGE_TEXT);
  const shortest = exact ?? min;
  const random = fc.oneof(
    fc.string({ minLength: shortest, maxLength: Math.max(shortest, Math.min(longest ?? 30, 30)) }),
    fc.string({ unit: "grapheme", minLength: shortest, maxLength: Math.max(shortest, Math.min(longest ?? 10, 10)) }),
  ).filter(fits);
  const arbitraries: fc.Arbitrary<string>[] = [random];
  if (edges.length > 0) arbitraries.push(fc.constantFrom(...edges));
  const matching = pattern ? stringMatching(pattern) : null;
  // Text that must match a pattern (an amount, a date, a country code) is mostly made to match it, and is then
  // often one of the given words that matches (NL), since random text that matches rarely names a row.
  if (pattern && matching) {
    const words = (options.words ?? []).filter((word) => pattern.test(word) && fits(word));
    const matches = words.length > 0 ? fc.oneof(matching, fc.constantFrom(...words)) : matching;
    return fc.oneof({ arbitrary: matches, weight: 3 }, { arbitrary: fc.oneof(...arbitraries), weight: 1 });
  }
  return fc.oneof(...arbitraries);
}

function fittingNumber(def: Def): fc.Arbitrary<unknown> {
  const { min, max, int } = numberBounds(def);
  const low = min ?? -(2 ** 53 - 1);
  const high = max ?? 2 ** 53 - 1;
  // Near the low end ids, pages and quantities find seeded rows; the rest of the range finds what they do not.
  const near = int
    ? fc.integer({ min: Math.max(Math.ceil(low), -INT4_MAX), max: Math.min(Math.floor(high), Math.max(Math.ceil(low), -INT4_MAX) + 10) })
    : fc.double({ min: low, max: Math.min(high, low + 10), noNaN: true, noDefaultInfinity: true });
  const anywhere = int
    ? fc.integer({ min: Math.max(Math.ceil(low), Number.MIN_SAFE_INTEGER), max: Math.min(Math.floor(high), Number.MAX_SAFE_INTEGER) })
    : fc.double({ min: low, max: high, noNaN: true, noDefaultInfinity: true });
  const edges = [low, high, 0, 1, -1, INT4_MAX, INT4_MAX + 1, 9999999999, 0.5, 1e21].filter((value) => value >= low && value <= high && (!int || Number.isInteger(value)));
  const number = fc.oneof(near, anywhere, fc.constantFrom(...edges));
  return def.coerce ? fc.oneof(number, number.map((value) => ` ${value} `), fc.constantFrom("1e3", "0x10", "", "9999999999")) : number;
}

function defOf(schema: unknown): Def | null {
  const def = (schema as Schema | null)?._zod?.def;
  return def && typeof def.type === "string" ? def : null;
}

function checksOf(def: Def): Check["_zod"]["def"][] {
  return (def.checks ?? []).map((check) => check._zod.def);
}

function lengthBounds(def: Def): { min?: number; max?: number; exact?: number } {
  const bounds: { min?: number; max?: number; exact?: number } = {};
  for (const check of checksOf(def)) {
    if (check.check === "min_length") bounds.min = Math.max(bounds.min ?? 0, check.minimum as number);
    if (check.check === "max_length") bounds.max = Math.min(bounds.max ?? Infinity, check.maximum as number);
    if (check.check === "length_equals") bounds.exact = check.length as number;
  }
  return bounds;
}

function numberBounds(def: Def): { min?: number; max?: number; int: boolean } {
  const bounds: { min?: number; max?: number; int: boolean } = { int: isIntFormat(def.format) };
  for (const check of checksOf(def)) {
    if (check.check === "number_format" && isIntFormat(check.format)) bounds.int = true;
    // Exclusive bounds are met by the next whole number, or nearly so; "nearly" is good enough to aim with.
    const value = check.value as number;
    if (check.check === "greater_than") bounds.min = Math.max(bounds.min ?? -Infinity, check.inclusive ? value : bounds.int ? value + 1 : value + 1e-9);
    if (check.check === "less_than") bounds.max = Math.min(bounds.max ?? Infinity, check.inclusive ? value : bounds.int ? value - 1 : value - 1e-9);
  }
  return bounds;
}

function isIntFormat(format: unknown): boolean {
  return format === "safeint" || format === "int32" || format === "uint32";
}

/** A string schema's pattern: its own format's (z.email(), z.iso.date()) or a `.regex()` check's. */
function stringPattern(def: Def): RegExp | null {
  if (def.pattern instanceof RegExp) return def.pattern;
  const check = checksOf(def).find((candidate) => candidate.check === "string_format" && candidate.pattern instanceof RegExp);
  return (check?.pattern as RegExp | undefined) ?? null;
}

function stringMatching(pattern: RegExp): fc.Arbitrary<string> | null {
  try {
    return fc.stringMatching(pattern);
  } catch {
    // fast-check reads most but not all of RegExp's syntax (no lookarounds, say).
    return null;
  }
}

/** Which side of a pipe describes what the caller sends: the input side when the output only transforms it. */
function pipeSide(def: Def): "in" | "both" {
  return defOf(def.out)?.type === "transform" ? "in" : "both";
}

function instanceClass(schema: unknown): unknown {
  return (schema as Schema)._zod.bag.Class;
}
