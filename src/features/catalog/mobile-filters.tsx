"use client";

import { SlidersHorizontal } from "lucide-react";
import { lazy, useState } from "react";
import { LoadOnUse } from "@/components/load-on-use";
import { buttonVariants } from "@/components/ui/button";
import type { FacetsView } from "./facets-view";
import type { SearchState } from "./search-params";

const loadFiltersSheet = () => import("./filters-sheet");
const FiltersSheet = lazy(loadFiltersSheet);

/**
 * Each search state is a page of its own (features/catalog/catalogue-addresses.mjs), so a filter chosen in the sheet
 * brings a new page, and with it a new sheet. Whether the visitor has the sheet open is kept here, so the next page
 * opens it again and the visitor goes on choosing filters.
 */
let sheetOpen = false;
const sheetOpenChange = (open: boolean) => {
  sheetOpen = open;
};

/** The phone's Filters button; the sheet with the filters loads on first use. */
export function MobileFilters({ state, facets, total }: { state: SearchState; facets: FacetsView; total: string }) {
  const [reopen] = useState(() => sheetOpen);
  return (
    <LoadOnUse
      startUsed={reopen}
      preload={loadFiltersSheet}
      trigger={
        <button type="button" className={buttonVariants({ variant: "outline", size: "sm", className: "lg:hidden" })}>
          <SlidersHorizontal aria-hidden="true" /> Filters
        </button>
      }
    >
      {(trigger) => <FiltersSheet trigger={trigger} state={state} facets={facets} total={total} onOpenChange={sheetOpenChange} />}
    </LoadOnUse>
  );
}
