import { Search } from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";
import { Input } from "@/components/ui/input";
import { Button } from "@/components/ui/button";

export const sandboxMarketplacePath = "/sandbox/ebay";

/**
 * The frame of the sandbox marketplace's buyer pages: a marketplace's top bar (its name, a search box), a band saying
 * plainly that this is not eBay, and the page under it. Wider than the other sandbox pages: it is a shop of its own.
 */
export function MarketplaceFrame({ shopName, search, children }: { shopName: string; search?: string; children: ReactNode }) {
  return (
    <div className="min-h-dvh bg-background">
      <p className="bg-foreground px-4 py-2 text-center text-xs font-medium text-background" data-testid="sandbox-marketplace-banner">
        Sandbox marketplace — not eBay. Purchases here are test orders for {shopName}; no money changes hands.
      </p>
      <header className="border-b bg-card">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-6 gap-y-3 px-4 py-4">
          <Link href={sandboxMarketplacePath} className="font-serif text-2xl font-semibold tracking-tight">
            <span className="text-primary">Sandbox</span> Market
          </Link>
          <form action={sandboxMarketplacePath} method="get" role="search" className="flex min-w-0 flex-1 basis-64 gap-2">
            <label htmlFor="marketplace-search" className="sr-only">
              Search listings
            </label>
            <Input id="marketplace-search" name="q" type="search" defaultValue={search} placeholder="Search for watches and parts" className="min-w-0 rounded-full px-4" />
            <Button type="submit" className="rounded-full" aria-label="Search">
              <Search aria-hidden />
              <span className="hidden sm:inline">Search</span>
            </Button>
          </form>
        </div>
      </header>
      <main className="mx-auto max-w-6xl px-4 py-6 sm:py-8">{children}</main>
      <footer className="mx-auto max-w-6xl px-4 pb-10 text-xs text-muted-foreground">
        This marketplace stands in for eBay while the shop runs with sandbox integrations. Listings are the shop&apos;s own offers; a purchase reaches the shop as an
        eBay order would.
      </footer>
    </div>
  );
}
