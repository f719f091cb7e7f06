"use client";

import { SlidersHorizontal } from "lucide-react";
import { lazy } from "react";
import { LoadOnUse } from "@/components/load-on-use";
import { buttonVariants } from "@/components/ui/button";
import type { FacetsView } from "./facets-view";
import type { SearchState } from "./search-params";

const loadFiltersSheet = () => import("./filters-sheet");
const FiltersSheet = lazy(loadFiltersSheet);

/** The phone's Filters button; the sheet with the filters loads on first use. */
export function MobileFilters({ state, facets, total }: { state: SearchState; facets: FacetsView; total: string }) {
  return (
    <LoadOnUse
      preload={loadFiltersSheet}
      trigger={
        <button type="button" className={buttonVariants({ variant: "outline", size: "sm", className: "lg:hidden" })}>
          <SlidersHorizontal aria-hidden="true" /> Filters
        </button>
      }
    >
      {(trigger) => <FiltersSheet trigger={trigger} state={state} facets={facets} total={total} />}
    </LoadOnUse>
  );
}
