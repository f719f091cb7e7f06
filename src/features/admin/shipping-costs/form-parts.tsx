"use client";

import type { Decimal } from "decimal.js";
import { useEffect, type ReactNode, type RefObject } from "react";
import type { FieldErrors } from "react-hook-form";
import { toast } from "@/components/toast";
import { AdminLabel } from "@/components/ui/admin-form-controls";
import { cn } from "@/lib/utils";
import { MISSING_FIELDS_TOAST } from "../forms/is-filled";

/** A labelled field with the reason the schema gives for refusing it, or a hint while there is none. */
export function CostField({
  label,
  htmlFor,
  error,
  hint,
  required,
  className,
  children,
}: {
  label: string;
  htmlFor: string;
  error?: string;
  hint?: ReactNode;
  required?: boolean;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={cn("space-y-1", className)} data-invalid={error ? true : undefined}>
      <AdminLabel htmlFor={htmlFor} required={required} className={cn(error && "text-destructive")}>
        {label}
      </AdminLabel>
      {children}
      {error ? (
        <p id={`${htmlFor}-error`} className="text-[11px] text-destructive">
          {error}
        </p>
      ) : hint ? (
        <p className="text-[11px] text-muted-foreground">{hint}</p>
      ) : null}
    </div>
  );
}

/** The input props that tie a field to its id, its refusal and the required mark. */
export function fieldProps(name: string, error: string | undefined, required = false) {
  return {
    id: `field-${name}`,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error ? `field-${name}-error` : undefined,
    "aria-required": required || undefined,
  };
}

/** A stored fraction as the percentage staff type: 0.035 → "3.5". */
export function percentText(fraction: Decimal): string {
  return fraction.times(100).toDecimalPlaces(2).toString();
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

/** A server refusal beside the form it refused, in the words the server gave (the toast shows them too). */
export function RefusalNote({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p role="alert" className="rounded-md border border-destructive/30 bg-destructive/10 px-3 py-2 text-sm text-destructive">
      {message}
    </p>
  );
}

/** Ctrl+S / ⌘S submits the form from anywhere on the page, as on the product form. */
export function useSaveShortcut(form: RefObject<HTMLFormElement | null>) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.metaKey || event.ctrlKey) && event.key.toLowerCase() === "s") {
        event.preventDefault();
        form.current?.requestSubmit();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [form]);
}

/**
 * A refused submit (SPEC section 8): empty required fields are marked with the "fill out all required fields" toast;
 * otherwise the first reason the schema gave, named by its field's label ("TNT price: must be an amount…"). The
 * field is focused either way.
 */
export function refuseWithLabels(errors: FieldErrors, label: (path: string) => string, markMissing?: (fields: Set<string>) => void) {
  const missing = Object.keys(errors).filter((field) => (errors[field] as { type?: string } | undefined)?.type === "required");
  markMissing?.(new Set(missing));
  const first = firstError(errors);
  if (missing.length) toast.error(MISSING_FIELDS_TOAST.title, { description: MISSING_FIELDS_TOAST.description });
  else toast.error("Error", { description: first ? `${label(first.path)}: ${first.message}` : undefined });
  if (first) document.getElementById(`field-${first.path}`)?.focus();
}
