"use client";

import { LayoutGrid, List, Monitor, Moon, Sun } from "lucide-react";
import { useTheme } from "next-themes";
import type { ReactElement } from "react";
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

/**
 * Theme (Light, Dark, System; kept under `theme-mode`) and listing layout (grid or list; kept under `layout`).
 * Loaded on first use, open; it only ever renders in the browser, where the stored theme is known.
 */
export default function SettingsMenu({ trigger }: { trigger: ReactElement }) {
  const { theme, setTheme } = useTheme();
  const [layout, setLayout] = useListingLayout();
  return (
    <DropdownMenu defaultOpen>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-52">
        <DropdownMenuLabel>Theme</DropdownMenuLabel>
        <DropdownMenuRadioGroup value={theme ?? "light"} onValueChange={setTheme}>
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
