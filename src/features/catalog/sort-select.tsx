"use client";

import { useRouter } from "next/navigation";
import { useId, useTransition } from "react";
import { searchHref, sortOptions, type SearchState, type SortValue } from "./search-params";

/** The order of the results; a native select, which phones show as their own picker. */
export function SortSelect({ state }: { state: SearchState }) {
  const router = useRouter();
  const [, startTransition] = useTransition();
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-sm text-muted-foreground">
        Sort by
      </label>
      <select
        id={id}
        value={state.sort}
        onChange={(event) => startTransition(() => router.push(searchHref({ ...state, sort: event.target.value as SortValue, page: 1 }), { scroll: false }))}
        className="h-9 rounded-md border border-input bg-background px-2 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        {sortOptions
          .filter((option) => option.value !== "relevance:desc" || state.search)
          .map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
      </select>
    </div>
  );
}
