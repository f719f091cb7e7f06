"use client";

import { Search } from "lucide-react";
import { lazy } from "react";
import { LoadOnUse } from "@/components/load-on-use";
import { Button } from "@/components/ui/button";

const loadDrawer = () => import("./search-drawer");
const SearchDrawer = lazy(loadDrawer);

/** The navbar's search item; the drawer itself loads on first use. */
export function SearchButton() {
  return (
    <LoadOnUse
      preload={loadDrawer}
      trigger={
        <Button variant="ghost" size="icon" aria-label="Search">
          <Search aria-hidden="true" />
        </Button>
      }
    >
      {(trigger) => <SearchDrawer trigger={trigger} />}
    </LoadOnUse>
  );
}
