"use client";

import { SlidersHorizontal } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle, SheetTrigger } from "@/components/ui/sheet";
import type { FacetsView } from "./facets-view";
import { SearchFilters } from "./search-filters";
import type { SearchState } from "./search-params";

/** Below the large breakpoint the filters open in a side sheet. */
export function MobileFilters({ state, facets, total }: { state: SearchState; facets: FacetsView; total: string }) {
  return (
    <Sheet>
      <SheetTrigger asChild>
        <Button variant="outline" size="sm" className="lg:hidden">
          <SlidersHorizontal aria-hidden="true" /> Filters
        </Button>
      </SheetTrigger>
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
