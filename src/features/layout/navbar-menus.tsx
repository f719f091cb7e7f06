"use client";

import { ChevronDown, Menu, Search, Settings, type LucideIcon } from "lucide-react";
import { lazy, type ComponentType, type ReactElement } from "react";
import { LoadOnUse } from "@/components/load-on-use";
import { Button, buttonVariants } from "@/components/ui/button";
import type { NavbarData } from "@/server/navbar/schemas";

const loadNavMenu = () => import("./nav-menu");
const NavMenu = lazy(loadNavMenu);
const loadCategoriesSheet = () => import("./categories-sheet");
const CategoriesSheet = lazy(loadCategoriesSheet);
const loadSearchDrawer = () => import("./search-drawer");
const SearchDrawer = lazy(loadSearchDrawer);
const loadSettingsMenu = () => import("./settings-menu");
const SettingsMenu = lazy(loadSettingsMenu);

/** An icon button whose popup (a lazy component wrapping the trigger, open) loads on first use. */
function IconPopupButton({ label, icon: Icon, preload, Popup }: { label: string; icon: LucideIcon; preload: () => Promise<unknown>; Popup: ComponentType<{ trigger: ReactElement }> }) {
  return (
    <LoadOnUse
      preload={preload}
      trigger={
        <Button variant="ghost" size="icon" aria-label={label}>
          <Icon aria-hidden="true" />
        </Button>
      }
    >
      {(trigger) => <Popup trigger={trigger} />}
    </LoadOnUse>
  );
}

/** The search drawer's button. */
export function SearchButton() {
  return <IconPopupButton label="Search" icon={Search} preload={loadSearchDrawer} Popup={SearchDrawer} />;
}

/** The settings menu's button: theme and listing layout. */
export function SettingsButton() {
  return <IconPopupButton label="Settings" icon={Settings} preload={loadSettingsMenu} Popup={SettingsMenu} />;
}

/** A desktop dropdown's button; the menu loads on first use. */
export function NavDropdown({ label, menu, initialData }: { label: string; menu: "manufacturers" | "categories"; initialData: NavbarData }) {
  return (
    <LoadOnUse
      preload={loadNavMenu}
      trigger={
        <button type="button" className={buttonVariants({ variant: "ghost", size: "menu", className: "data-[state=open]:bg-accent" })}>
          {label}
          <ChevronDown aria-hidden="true" />
        </button>
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
