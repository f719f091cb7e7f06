"use client";

import { LayoutGrid, List, Monitor, Moon, Settings, Sun } from "lucide-react";
import { useTheme } from "next-themes";
import { useSyncExternalStore } from "react";
import { Button } from "@/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { useListingLayout } from "@/features/catalog/use-listing-layout";

const themeChoices = [
  { value: "light", label: "Light", icon: Sun },
  { value: "dark", label: "Dark", icon: Moon },
  { value: "system", label: "System", icon: Monitor },
] as const;

const noop = () => () => {};

/** Theme (Light, Dark, System; kept under `theme-mode`) and listing layout (grid or list; kept under `layout`). */
export function SettingsPanel({ className, withLabel = false }: { className?: string; withLabel?: boolean }) {
  const { theme, setTheme } = useTheme();
  const [layout, setLayout] = useListingLayout();
  // The stored theme is only known in the browser; until hydration the menu shows no choice rather than a wrong one.
  const hydrated = useSyncExternalStore(noop, () => true, () => false);
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size={withLabel ? "default" : "icon"} aria-label="Settings" className={className}>
          <Settings aria-hidden="true" />
          {withLabel ? <span className="text-[11px]">Settings</span> : null}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-52">
        <DropdownMenuLabel>Theme</DropdownMenuLabel>
        <DropdownMenuRadioGroup value={hydrated ? (theme ?? "light") : ""} onValueChange={setTheme}>
          {themeChoices.map(({ value, label, icon: Icon }) => (
            <DropdownMenuRadioItem key={value} value={value}>
              <Icon aria-hidden="true" /> {label}
            </DropdownMenuRadioItem>
          ))}
        </DropdownMenuRadioGroup>
        <DropdownMenuSeparator />
        <DropdownMenuLabel>Product layout</DropdownMenuLabel>
        <DropdownMenuRadioGroup value={layout} onValueChange={(value) => setLayout(value === "list" ? "list" : "grid")}>
          <DropdownMenuRadioItem value="grid">
            <LayoutGrid aria-hidden="true" /> Grid
          </DropdownMenuRadioItem>
          <DropdownMenuRadioItem value="list">
            <List aria-hidden="true" /> List
          </DropdownMenuRadioItem>
        </DropdownMenuRadioGroup>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
