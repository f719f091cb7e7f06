"use client";

import { LayoutGrid, List } from "lucide-react";
import { Button } from "@/components/ui/button";
import { useListingLayout } from "./use-listing-layout";

/** Grid or list, the same preference as in the settings panel. */
export function LayoutToggle() {
  const [layout, setLayout] = useListingLayout();
  return (
    <div className="flex rounded-md border" role="group" aria-label="Layout">
      <Button variant={layout === "grid" ? "secondary" : "ghost"} size="icon" className="size-9 rounded-r-none" aria-label="Grid layout" aria-pressed={layout === "grid"} onClick={() => setLayout("grid")}>
        <LayoutGrid aria-hidden="true" />
      </Button>
      <Button variant={layout === "list" ? "secondary" : "ghost"} size="icon" className="size-9 rounded-l-none" aria-label="List layout" aria-pressed={layout === "list"} onClick={() => setLayout("list")}>
        <List aria-hidden="true" />
      </Button>
    </div>
  );
}
