"use client";

import type { ReactNode } from "react";
import { AdminLabel } from "@/components/ui/admin-form-controls";
import { cn } from "@/lib/utils";

/**
 * A labelled field of a staff form: the label with SPEC section 5's required mark, the control, and under it why the
 * form refused the field ("Required", or the schema's words) or else a hint. That note has the id
 * `<htmlFor>-note`, which `fieldProps` points the control's `aria-describedby` at.
 */
export function FormField({
  label,
  htmlFor,
  required,
  error,
  hint,
  className,
  children,
}: {
  label: string;
  htmlFor: string;
  required?: boolean;
  error?: string;
  hint?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={cn("space-y-1", className)} data-invalid={error ? true : undefined}>
      <AdminLabel htmlFor={htmlFor} required={required} className={cn(error && "text-destructive")}>
        {label}
      </AdminLabel>
      {children}
      {error || hint ? (
        <p id={`${htmlFor}-note`} className={cn("text-[11px]", error ? "text-destructive" : "text-muted-foreground")}>
          {error || hint}
        </p>
      ) : null}
    </div>
  );
}

/** The control's props that tie it to its `FormField` (id `field-<name>`), its refusal and the required mark. */
export function fieldProps(name: string, error: string | undefined, required = false) {
  return {
    id: `field-${name}`,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error ? `field-${name}-note` : undefined,
    "aria-required": required || undefined,
  };
}
