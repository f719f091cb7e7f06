"use client";

import { ChevronDown, Menu } from "lucide-react";
import { lazy } from "react";
import { LoadOnUse } from "@/components/load-on-use";
import { Button } from "@/components/ui/button";
import type { NavbarData } from "@/server/navbar/schemas";

const loadNavMenu = () => import("./nav-menu");
const NavMenu = lazy(loadNavMenu);
const loadCategoriesSheet = () => import("./categories-sheet");
const CategoriesSheet = lazy(loadCategoriesSheet);

/** A desktop dropdown's button; the menu loads on first use. */
export function NavDropdown({ label, menu, initialData }: { label: string; menu: "manufacturers" | "categories"; initialData: NavbarData }) {
  return (
    <LoadOnUse
      preload={loadNavMenu}
      trigger={
        <Button variant="ghost" className="gap-1 px-3 data-[state=open]:bg-accent">
          {label}
          <ChevronDown aria-hidden="true" />
        </Button>
      }
    >
      {(trigger) => <NavMenu trigger={trigger} menu={menu} initialData={initialData} />}
    </LoadOnUse>
  );
}

/** The mobile bottom bar's menu button; the Categories & Manufacturers sheet loads on first use. */
export function CategoriesButton({ initialData, describedBy }: { initialData: NavbarData; describedBy: string }) {
  return (
    <LoadOnUse
      preload={loadCategoriesSheet}
      trigger={
        <Button variant="ghost" size="icon" title="Categories & Manufacturers" aria-label="Categories & Manufacturers" aria-describedby={describedBy}>
          <Menu aria-hidden="true" />
        </Button>
      }
    >
      {(trigger) => <CategoriesSheet trigger={trigger} initialData={initialData} />}
    </LoadOnUse>
  );
}
