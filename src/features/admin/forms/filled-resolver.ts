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

/**
 * A refused submit: the empty required fields are marked and the first focused, with SPEC section 8's toast; a
 * filled form the schema refuses shows the schema's reason instead, as the server would have.
 */
export function showRefusal(errors: FieldErrors, markMissing: (fields: Set<string>) => void) {
  const missing = Object.keys(errors).filter((field) => errors[field]?.type === "required");
  markMissing(new Set(missing));
  const [first, problem] = Object.entries(errors)[0] ?? [];
  if (missing.length) toast.error(MISSING_FIELDS_TOAST.title, { description: MISSING_FIELDS_TOAST.description });
  else toast.error("Error", { description: first && problem?.message ? `${first}: ${String(problem.message)}` : undefined });
  document.getElementById(`field-${first}`)?.focus();
}
