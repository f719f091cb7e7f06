import { zodResolver } from "@hookform/resolvers/zod";
import type { FieldErrors, FieldValues, Resolver } from "react-hook-form";
import type { z } from "zod";
import { toast } from "@/components/toast";
import { MISSING_FIELDS_TOAST, missingFields } from "./is-filled";

/**
 * A staff form's resolver: SPEC section 5's "filled" rule for the required fields first, then the zod schema the
 * server parses the same input with, so the form does not send what the server would refuse. The form submits the
 * input `toInput` builds, unparsed, exactly as the server receives it.
 */
export function filledThenSchema<Values extends FieldValues, Input extends FieldValues>(
  schema: z.ZodType<unknown, Input>,
  required: readonly (keyof Values & string)[],
  toInput: (values: Values) => Input,
): Resolver<Values, unknown, Input> {
  const bySchema = zodResolver(schema, undefined, { raw: true });
  return async (values, context, options) => {
    const missing = missingFields(values, required);
    if (missing.length) {
      const errors = Object.fromEntries(missing.map((field) => [field, { type: "required", message: "Required" }]));
      return { values: {}, errors: errors as FieldErrors<Values> };
    }
    const input = toInput(values);
    const checked = await bySchema(input, context, options as unknown as Parameters<typeof bySchema>[2]);
    if (Object.keys(checked.errors).length) return { values: {}, errors: checked.errors as FieldErrors<Values> };
    return { values: input, errors: {} };
  };
}

/** The first refusal in a form's errors, wherever it sits, with the path of its field ("bands.2.minPrice"). */
export function firstError(errors: FieldErrors): { path: string; message: string } | null {
  const walk = (node: unknown, path: string[]): { path: string; message: string } | null => {
    if (!node || typeof node !== "object") return null;
    const { message } = node as { message?: unknown };
    if (typeof message === "string" && message && path.length) return { path: path.join("."), message };
    for (const [key, child] of Object.entries(node)) {
      if (key === "ref") continue;
      const found = walk(child, [...path, key]);
      if (found) return found;
    }
    return null;
  };
  return walk(errors, []);
}

/**
 * A refused submit (SPEC section 8): the empty required fields are marked (`markMissing`), with the "fill out all
 * required fields" toast; a filled form the schema refuses shows the schema's first reason instead, as the server
 * would have, named by its field's label ("Tracked price: must be an amount…"). The first refused field (id
 * `field-<path>`, or `field-<last part of the path>`) is focused either way. Returns that refusal.
 */
export function showRefusal(errors: FieldErrors, markMissing?: (fields: Set<string>) => void, label: (path: string) => string = (path) => path) {
  const missing = Object.keys(errors).filter((field) => errors[field]?.type === "required");
  markMissing?.(new Set(missing));
  const first = firstError(errors);
  if (missing.length) toast.error(MISSING_FIELDS_TOAST.title, { description: MISSING_FIELDS_TOAST.description });
  else toast.error("Error", { description: first ? `${label(first.path)}: ${first.message}` : undefined });
  // A form that holds a nested input flat ("address.postCode") names the field by the path's last part.
  if (first) (document.getElementById(`field-${first.path}`) ?? document.getElementById(`field-${first.path.split(".").at(-1)}`))?.focus();
  return first;
}
