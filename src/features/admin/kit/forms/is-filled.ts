/**
 * SPEC section 5: a required field counts as filled when a number is not NaN, a date is valid, a boolean always,
 * an array is non-empty, and anything else is truthy.
 */
export function isFilled(value: unknown): boolean {
  if (typeof value === "number") return !Number.isNaN(value);
  if (value instanceof Date) return !Number.isNaN(value.getTime());
  if (typeof value === "boolean") return true;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === "string") return value.trim().length > 0;
  return Boolean(value);
}

/** The required fields that are not filled, in the order given. */
export function missingFields<T extends Record<string, unknown>>(values: T, required: readonly (keyof T)[]): (keyof T)[] {
  return required.filter((field) => !isFilled(values[field]));
}

/** SPEC sections 5 and 8: the destructive toast of a submit with missing fields. */
export const MISSING_FIELDS_TOAST = { title: "Error", description: "Please fill out all required fields" } as const;
