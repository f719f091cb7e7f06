"use client";

import { Menu } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Sheet, SheetContent, SheetTitle, SheetTrigger } from "@/components/ui/sheet";
import { SidebarContents, type AdminUser } from "./admin-sidebar";

/** Tailwind's `md` (globals.css): from here up the sidebar is a column of its own and this drawer is not used. */
const SIDEBAR_COLUMN_QUERY = "(min-width: 48rem)";

/**
 * Below the medium breakpoint the sidebar is an off-canvas drawer from the left, opened by the top bar's menu
 * button. Radix's dialog gives the rest: focus moves into the drawer (to the current page's entry) and back to the
 * button, Escape and a click on the backdrop close it. Following one of its links closes it too, and so does widening
 * the window past the breakpoint, where the column takes over (an open modal there would leave the page inert).
 */
export function AdminNavDrawer({ user }: { user: AdminUser }) {
  const [open, setOpen] = useState(false);
  const contents = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const wide = window.matchMedia(SIDEBAR_COLUMN_QUERY);
    const closeWhenWide = () => {
      if (wide.matches) setOpen(false);
    };
    wide.addEventListener("change", closeWhenWide);
    return () => wide.removeEventListener("change", closeWhenWide);
  }, []);

  return (
    <Sheet open={open} onOpenChange={setOpen}>
      <SheetTrigger asChild>
        <Button variant="ghost" size="icon" className="size-8 shrink-0 md:hidden" aria-label="Open menu" title="Menu">
          <Menu />
        </Button>
      </SheetTrigger>
      <SheetContent
        ref={contents}
        side="left"
        aria-describedby={undefined}
        // Radix would focus the first button (it skips links); the current page's entry says where one is.
        onOpenAutoFocus={(event) => {
          const current = contents.current?.querySelector<HTMLElement>('nav a[aria-current="page"]');
          if (!current) return;
          event.preventDefault();
          current.focus();
        }}
        className="w-72 max-w-[85vw] gap-0 bg-[var(--admin-sidebar)] p-0 sm:max-w-[85vw]"
      >
        <SheetTitle className="sr-only">Admin menu</SheetTitle>
        <SidebarContents user={user} roomy onNavigate={() => setOpen(false)} />
      </SheetContent>
    </Sheet>
  );
}
