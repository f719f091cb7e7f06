"use client";

import { Loader2, Plus, Search } from "lucide-react";
import { useState, type KeyboardEvent, type ReactNode } from "react";
import { AdminInput } from "@/components/ui/admin-form-controls";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";
import { useDebounced } from "./use-debounced";

/** Searches wait for a pause in typing. */
export const SEARCH_PAUSE_MS = 300;

/** A search box of a staff form (customers, products), with a spinner while the server answers. */
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

/**
 * What a search box holds: the text as typed, and the term to ask the server about once typing pauses. `found` is
 * true from two characters on, when the server answers with matches (the search procedures ask for two).
 */
export function useSearchTerm() {
  const [text, setText] = useState("");
  const term = useDebounced(text, SEARCH_PAUSE_MS);
  return { text, setText, term, found: term.trim().length >= 2 };
}

export type SearchTerm = ReturnType<typeof useSearchTerm>;

/**
 * A search box and what it found, each with an Add button; one already added is not offered twice, and adding
 * clears the box. `enterAddsFirst`: Enter adds the first match not added yet. `children` draws a match.
 */
export function SearchToAdd<Row extends { id: number | string }>({
  label,
  placeholder,
  search,
  busy,
  rows,
  added,
  onAdd,
  listLabel,
  noMatch,
  enterAddsFirst = false,
  listClassName,
  children,
}: {
  label: string;
  placeholder: string;
  search: SearchTerm;
  busy: boolean;
  rows: Row[] | undefined;
  added: ReadonlySet<Row["id"]>;
  onAdd: (row: Row) => void;
  listLabel: string;
  noMatch: ReactNode;
  enterAddsFirst?: boolean;
  listClassName?: string;
  children: (row: Row) => ReactNode;
}) {
  const shown = search.found ? rows : undefined;
  const add = (row: Row) => {
    onAdd(row);
    search.setText("");
  };
  return (
    <div className="space-y-2">
      <SearchField
        label={label}
        placeholder={placeholder}
        value={search.text}
        onChange={search.setText}
        busy={busy}
        onKeyDown={
          enterAddsFirst
            ? (event) => {
                if (event.key !== "Enter") return;
                event.preventDefault();
                const first = shown?.find((row) => !added.has(row.id));
                if (first) add(first);
              }
            : undefined
        }
      />
      {shown ? (
        shown.length ? (
          <ul className={cn("max-h-56 divide-y overflow-y-auto rounded-md border", listClassName)} aria-label={listLabel}>
            {shown.map((row) => (
              <li key={row.id} className="flex items-center gap-3 px-3 py-1.5 text-sm">
                {children(row)}
                <Button type="button" size="sm" variant="outline" disabled={added.has(row.id)} onClick={() => add(row)}>
                  <Plus /> {added.has(row.id) ? "Added" : "Add"}
                </Button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-xs text-muted-foreground">{noMatch}</p>
        )
      ) : null}
    </div>
  );
}
