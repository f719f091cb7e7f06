import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { env } from "@/env";
import { ListingCard } from "@/features/sandbox/ebay/listing-card";
import { listingImageSrc } from "@/features/sandbox/ebay/image-src";
import { MarketplaceFrame } from "@/features/sandbox/ebay/marketplace-frame";
import { currentSession } from "@/server/auth/require-session";
import { shopUrl } from "@/server/config/shop-url";
import { getDb } from "@/server/db/client";
import { listSandboxListings } from "@/server/integrations/marketplace/sandbox-store";
import { canUseSandboxPages } from "@/server/integrations/sandbox-access";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Sandbox marketplace", robots: { index: false, follow: false } };

/** The sandbox marketplace's listings (the embedded default's stand-in for the shop's eBay listings), with a search. */
export default async function SandboxMarketplacePage({ searchParams }: { searchParams: Promise<{ q?: string | string[] }> }) {
  if (!canUseSandboxPages(await headers(), await currentSession())) notFound();
  const { q } = await searchParams;
  const search = (Array.isArray(q) ? q[0] : q)?.trim().slice(0, 100) ?? "";
  const { listings, total } = await listSandboxListings(getDb(), { search });
  const base = shopUrl();

  return (
    <MarketplaceFrame shopName={env.SHOP_NAME} search={search}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="font-serif text-2xl font-semibold">{search ? `Results for “${search}”` : "Listings"}</h1>
        <p className="text-sm text-muted-foreground" data-testid="sandbox-listing-count">
          {total === 1 ? "1 listing" : `${total.toLocaleString("en-IE")} listings`}
          {total > listings.length ? `, the first ${listings.length} shown` : ""}
        </p>
      </div>
      {listings.length === 0 ? (
        <p className="mt-10 rounded-lg border border-dashed p-8 text-center text-sm text-muted-foreground">
          {search ? "Nothing listed matches your search. Try fewer or other words." : "Nothing is listed yet. Staff publish offers on /admin/ebay/manage-ads."}
        </p>
      ) : (
        <ul className="mt-6 grid grid-cols-2 gap-x-4 gap-y-8 sm:grid-cols-3 lg:grid-cols-4">
          {listings.map((listing, index) => (
            <ListingCard key={listing.listingId} listing={{ ...listing, imageSrc: listingImageSrc(listing.imageUrl, base) }} priority={index < 4} />
          ))}
        </ul>
      )}
    </MarketplaceFrame>
  );
}
