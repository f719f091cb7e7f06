"use client";

import { useCallback } from "react";
import { get, type FieldErrors, type FieldPath, type FieldValues, type UseFormReturn } from "react-hook-form";
import { showRefusal } from "./filled-resolver";

/** One refused field: its dotted path in the input ("address.postCode") and why. */
export type FieldIssue = { path: string; message: string };

/**
 * The fields a server's BAD_REQUEST refused (the errorFormatter's `data.fieldIssues` in `server/trpc.ts`: the zod
 * schema's paths and messages only); none for any other error.
 */
export function serverFieldIssues(error: unknown): FieldIssue[] {
  const issues = (error as { data?: { fieldIssues?: unknown } } | null)?.data?.fieldIssues;
  if (!Array.isArray(issues)) return [];
  return issues.filter((issue): issue is FieldIssue => typeof issue?.path === "string" && typeof issue?.message === "string");
}

/** Why the form refused the field at this path, if it did: "Required" or the schema's words. */
export function errorAt(errors: FieldErrors, path: string): string | undefined {
  const message = (get(errors, path) as { message?: unknown } | undefined)?.message;
  return typeof message === "string" && message ? message : undefined;
}

/**
 * A staff form's refusals on its fields, from both sides of the one zod schema: `refuse` is `handleSubmit`'s second
 * argument (the browser's check by the resolver, `filledThenSchema`), `refuseFromServer` the mutation's catch (what
 * the server refused all the same: a rule only it knows, or a form whose resolver let it through). Either way each
 * refused field shows its reason under it, outlined (`errorOf`, for `FormField` and `fieldProps`), the first is
 * focused, and the SPEC's "Error" toast stays the whole form's. `fieldOf` maps an input's path to the form's field
 * where they differ (the form holds "address.postCode" as "postCode"); a path it maps to nothing is left to the toast.
 */
export function useFieldRefusals<Values extends FieldValues, Output>(
  form: Pick<UseFormReturn<Values, unknown, Output>, "setError" | "formState">,
  { label, fieldOf = (path) => path }: { label?: (path: string) => string; fieldOf?: (inputPath: string) => string | null } = {},
) {
  const { setError, formState } = form;
  const refuse = useCallback((errors: FieldErrors<Values>) => showRefusal(errors, undefined, label), [label]);
  const refuseFromServer = useCallback(
    (error: unknown) => {
      let first: string | null = null;
      for (const issue of serverFieldIssues(error)) {
        const field = fieldOf(issue.path);
        if (!field) continue;
        setError(field as FieldPath<Values>, { type: "server", message: issue.message });
        first ??= field;
      }
      if (first) document.getElementById(`field-${first}`)?.focus();
    },
    [fieldOf, setError],
  );
  const errorOf = (path: string) => errorAt(formState.errors, path);
  return { refuse, refuseFromServer, errorOf };
}
