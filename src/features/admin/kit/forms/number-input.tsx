"use client";

import type { ComponentProps } from "react";
import { AdminInput } from "@/components/ui/admin-form-controls";
import { clampTyped } from "./clamp-typed";

type NumberInputProps = Omit<ComponentProps<"input">, "min" | "max" | "step"> & { min: number; max: number; step?: number };

/**
 * Every number field of the back office: on leaving it, a number out of range becomes its min or max (SPEC section 5).
 * `step` below 1 allows decimals. The clamped text is set through the native setter and announced as typing, so the
 * field's owner hears it whichever way it listens: react-hook-form's `register` or a controlled `value`.
 */
export function NumberInput({ min, max, step = 1, onBlur, ...props }: NumberInputProps) {
  return (
    <AdminInput
      inputMode={step < 1 ? "decimal" : "numeric"}
      autoComplete="off"
      min={min}
      max={max}
      step={step}
      {...props}
      onBlur={(event) => {
        const input = event.currentTarget;
        const clamped = clampTyped(input.value, min, max);
        if (clamped !== input.value) {
          Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")?.set?.call(input, clamped);
          input.dispatchEvent(new Event("input", { bubbles: true }));
        }
        onBlur?.(event);
      }}
    />
  );
}
