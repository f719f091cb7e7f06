"use client";

import { useEffect, useState, type ReactElement } from "react";
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle, SheetTrigger } from "@/components/ui/sheet";
import type { FacetsView } from "./facets-view";
import { SearchFilters } from "./search-filters";
import type { SearchState } from "./search-params";

/** Below the large breakpoint the filters open in a side sheet. Loaded on first use, open. */
export default function FiltersSheet({
  trigger,
  state,
  facets,
  total,
  onOpenChange,
}: {
  trigger: ReactElement;
  state: SearchState;
  facets: FacetsView;
  total: string;
  onOpenChange: (open: boolean) => void;
}) {
  const [open, setOpen] = useState(true);
  // It mounts open: on the first click, or again on the next page after a filter was chosen in it.
  useEffect(() => onOpenChange(true), [onOpenChange]);
  const openChange = (next: boolean) => {
    onOpenChange(next);
    setOpen(next);
  };
  return (
    <Sheet open={open} onOpenChange={openChange}>
      <SheetTrigger asChild>{trigger}</SheetTrigger>
      <SheetContent side="left" className="gap-0">
        <SheetHeader>
          <SheetTitle>Filters</SheetTitle>
          <SheetDescription>{total}</SheetDescription>
        </SheetHeader>
        <div className="flex-1 overflow-y-auto px-4 pb-6">
          <SearchFilters state={state} facets={facets} />
        </div>
      </SheetContent>
    </Sheet>
  );
}
