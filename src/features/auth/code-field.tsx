"use client";

import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";

/** One code to type (an authenticator app's six digits, or a recovery code), with what was wrong with the last one. */
export function CodeField({
  label,
  submitLabel,
  pending,
  error,
  onSubmit,
  kind = "digits",
}: {
  label: string;
  submitLabel: string;
  pending: boolean;
  error: string | null;
  onSubmit: (code: string) => void;
  kind?: "digits" | "recovery";
}) {
  const id = useId();
  const [code, setCode] = useState("");
  return (
    <form
      noValidate
      className="flex flex-col gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(code.trim());
      }}
    >
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        value={code}
        onChange={(event) => setCode(event.target.value)}
        autoComplete="one-time-code"
        inputMode={kind === "digits" ? "numeric" : "text"}
        placeholder={kind === "digits" ? "123 456" : "ABCDE-FGHJK"}
        className="font-mono tracking-widest"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        autoFocus
      />
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
      <Button type="submit" disabled={pending || code.trim().length === 0}>
        {submitLabel}
      </Button>
    </form>
  );
}
