"use client";

import { useQuery } from "@tanstack/react-query";
import { ChevronDown, Menu } from "lucide-react";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuSub,
  DropdownMenuSubContent,
  DropdownMenuSubTrigger,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { AccountButton } from "@/features/account/account-button";
import { CartButton } from "@/features/cart/cart-button";
import { useTRPC } from "@/lib/trpc/client";
import type { MenuItem, NavbarData } from "@/server/navbar/schemas";
import { CategoriesSheet } from "./categories-sheet";
import { Logo } from "./logo";
import { menuHref } from "./menu-href";
import { SearchDrawer } from "./search-drawer";
import { SettingsPanel } from "./settings-panel";

/** The menus, fetched once: no refetch on mount, reconnect or focus (SPEC section 7). The server hands the first copy. */
export function useNavbarData(initialData?: NavbarData) {
  const trpc = useTRPC();
  return useQuery(
    trpc.shared.navbar.getNavbarData.queryOptions(
      {},
      { initialData, staleTime: Number.POSITIVE_INFINITY, refetchOnMount: false, refetchOnReconnect: false, refetchOnWindowFocus: false },
    ),
  );
}

function MenuEntries({ items }: { items: MenuItem[] }) {
  return items.map((item) =>
    item.children?.length ? (
      <DropdownMenuSub key={item.id}>
        <DropdownMenuSubTrigger>{item.name}</DropdownMenuSubTrigger>
        <DropdownMenuSubContent>
          <DropdownMenuItem asChild>
            <Link href={menuHref(item)} className="font-medium">
              All {item.name.toLowerCase()}
            </Link>
          </DropdownMenuItem>
          <DropdownMenuSeparator />
          <MenuEntries items={item.children} />
        </DropdownMenuSubContent>
      </DropdownMenuSub>
    ) : (
      <DropdownMenuItem key={item.id} asChild>
        <Link href={menuHref(item)}>{item.name}</Link>
      </DropdownMenuItem>
    ),
  );
}

function NavDropdown({ label, items, loading }: { label: string; items: MenuItem[] | undefined; loading: boolean }) {
  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" className="gap-1 px-3 data-[state=open]:bg-accent">
          {label}
          <ChevronDown aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="max-h-[40vh] w-64">
        {loading || !items ? <DropdownMenuItem disabled>Loading...</DropdownMenuItem> : <MenuEntries items={items} />}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/**
 * Desktop (large screens): logo, Manufacturers (the brands: children of the first manufacturer entry) and
 * Categories dropdowns, then search, settings, cart and sign-in. Below the large breakpoint: the logo on top and a
 * fixed bottom bar with the menu, search, cart, settings and sign-in.
 */
export function Navbar({ shopName, initialData }: { shopName: string; initialData?: NavbarData }) {
  const { data, isPending } = useNavbarData(initialData);
  const brands = data?.manufacturers[0]?.children ?? (data ? [] : undefined);
  return (
    <>
      <header className="sticky top-0 z-40 border-b bg-background/95 backdrop-blur supports-[backdrop-filter]:bg-background/80">
        <nav aria-label="Main" className="mx-auto flex h-16 max-w-7xl items-center gap-2 px-4 sm:px-6">
          <Link href="/" aria-label={`${shopName} home`} className="mr-2 rounded-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
            <Logo name={shopName} />
          </Link>
          <div className="hidden items-center gap-1 lg:flex">
            <NavDropdown label="Manufacturers" items={brands} loading={isPending} />
            <NavDropdown label="Categories" items={data?.categories} loading={isPending} />
          </div>
          <div className="ml-auto hidden items-center gap-1 lg:flex">
            <SearchDrawer />
            <SettingsPanel />
            <CartButton />
            <AccountButton />
          </div>
        </nav>
      </header>
      <nav
        aria-label="Shortcuts"
        className="fixed inset-x-0 bottom-0 z-40 border-t bg-background/95 pb-[env(safe-area-inset-bottom)] backdrop-blur supports-[backdrop-filter]:bg-background/85 lg:hidden"
      >
        <div className="mx-auto grid h-16 max-w-md grid-cols-5 items-center justify-items-center px-2">
          <CategoriesSheet data={data} loading={isPending}>
            <Button variant="ghost" size="icon" title="Categories & Manufacturers" aria-label="Categories & Manufacturers" aria-describedby="categories-menu-hint">
              <Menu aria-hidden="true" />
            </Button>
          </CategoriesSheet>
          <span id="categories-menu-hint" className="sr-only">
            Browse through categories and manufacturers
          </span>
          <SearchDrawer />
          <CartButton />
          <SettingsPanel />
          <AccountButton />
        </div>
      </nav>
    </>
  );
}
