"use client";

import { LayoutGrid, List } from "lucide-react";
import { buttonVariants } from "@/components/ui/button";
import { useListingLayout } from "./use-listing-layout";

/** Grid or list, the same preference as in the settings panel. On every /search, so its buttons take buttonVariants as they are (see Button). */
export function LayoutToggle() {
  const [layout, setLayout] = useListingLayout();
  return (
    <div className="flex rounded-md border" role="group" aria-label="Layout">
      <button type="button" className={buttonVariants({ variant: layout === "grid" ? "secondary" : "ghost", size: "icon-sm", className: "rounded-r-none" })} aria-label="Grid layout" aria-pressed={layout === "grid"} onClick={() => setLayout("grid")}>
        <LayoutGrid aria-hidden="true" />
      </button>
      <button type="button" className={buttonVariants({ variant: layout === "list" ? "secondary" : "ghost", size: "icon-sm", className: "rounded-l-none" })} aria-label="List layout" aria-pressed={layout === "list"} onClick={() => setLayout("list")}>
        <List aria-hidden="true" />
      </button>
    </div>
  );
}
