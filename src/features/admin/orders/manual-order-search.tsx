"use client";

import { Loader2, Search } from "lucide-react";
import type { KeyboardEvent } from "react";
import { AdminInput } from "@/components/ui/admin-form-controls";

/** A search box of the manual order form (customers, products), with a spinner while the server answers. */
export function SearchField({
  label,
  placeholder,
  value,
  onChange,
  busy,
  onKeyDown,
}: {
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  busy: boolean;
  onKeyDown?: (event: KeyboardEvent<HTMLInputElement>) => void;
}) {
  return (
    <div className="relative">
      <Search className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
      <AdminInput
        type="search"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={onKeyDown}
        placeholder={placeholder}
        aria-label={label}
        className="pl-8"
        autoComplete="off"
      />
      {busy ? <Loader2 className="absolute top-1/2 right-2.5 size-4 -translate-y-1/2 animate-spin text-muted-foreground" /> : null}
    </div>
  );
}
