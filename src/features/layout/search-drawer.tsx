"use client";

import { Search } from "lucide-react";
import { lazy } from "react";
import { LoadOnUse } from "@/components/load-on-use";
import { Button } from "@/components/ui/button";

const loadSheet = () => import("./search-sheet");
const SearchSheet = lazy(loadSheet);

/** The navbar's search item; the drawer itself loads on first use. */
export function SearchDrawer() {
  return (
    <LoadOnUse
      preload={loadSheet}
      trigger={
        <Button variant="ghost" size="icon" aria-label="Search">
          <Search aria-hidden="true" />
        </Button>
      }
    >
      {(trigger) => <SearchSheet trigger={trigger} />}
    </LoadOnUse>
  );
}
