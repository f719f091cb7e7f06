import Link from "next/link";
import { AccountButton } from "@/features/account/account-button";
import { CartButton } from "@/features/cart/cart-button";
import type { NavbarData } from "@/server/navbar/schemas";
import { Logo } from "./logo";
import { CategoriesButton, NavDropdown, SearchButton, SettingsButton } from "./navbar-menus";

/**
 * Desktop (large screens): logo, Manufacturers (the brands: children of the first manufacturer entry) and
 * Categories dropdowns, then search, settings, cart and sign-in. Below the large breakpoint: the logo on top and a
 * fixed bottom bar with the menu, search, cart, settings and sign-in. Rendered on the server; only the buttons
 * hydrate, and each menu, sheet or dialog loads when it is first opened.
 */
export function Navbar({ shopName, initialData }: { shopName: string; initialData: NavbarData }) {
  return (
    <>
      <header className="sticky top-0 z-40 border-b bg-background/95 backdrop-blur supports-[backdrop-filter]:bg-background/80">
        <nav aria-label="Main" className="mx-auto flex h-16 max-w-7xl items-center gap-2 px-4 sm:px-6">
          <Link href="/" aria-label={`${shopName} home`} className="mr-2 rounded-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
            <Logo name={shopName} />
          </Link>
          <div className="hidden items-center gap-1 lg:flex">
            <NavDropdown label="Manufacturers" menu="manufacturers" initialData={initialData} />
            <NavDropdown label="Categories" menu="categories" initialData={initialData} />
          </div>
          <div className="ml-auto hidden items-center gap-1 lg:flex">
            <SearchButton />
            <SettingsButton />
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
          <CategoriesButton initialData={initialData} describedBy="categories-menu-hint" />
          <span id="categories-menu-hint" className="sr-only">
            Browse through categories and manufacturers
          </span>
          <SearchButton />
          <CartButton />
          <SettingsButton />
          <AccountButton />
        </div>
      </nav>
    </>
  );
}
