import { ChevronLeft } from "lucide-react";
import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import { notFound } from "next/navigation";
import { env } from "@/env";
import { formatEuro } from "@/lib/money";
import { BuyForm } from "@/features/sandbox/ebay/buy-form";
import { conditionLabels } from "@/features/sandbox/ebay/condition-labels";
import { listingImageSrc } from "@/features/sandbox/ebay/image-src";
import { ListingGallery } from "@/features/sandbox/ebay/listing-gallery";
import { MarketplaceFrame, sandboxMarketplacePath } from "@/features/sandbox/ebay/marketplace-frame";
import { currentSession } from "@/server/auth/require-session";
import { shopUrl } from "@/server/config/shop-url";
import { getDb } from "@/server/db/client";
import { getSandboxListing } from "@/server/integrations/marketplace/sandbox-store";
import { canUseSandboxPages } from "@/server/integrations/sandbox-access";
import { buyListing } from "./actions";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Sandbox marketplace listing", robots: { index: false, follow: false } };

/**
 * One listing on the sandbox marketplace, as a buyer on eBay would see it: pictures, title, price, how many are left,
 * and "Buy it now" while it is live and in stock; "Out of stock" or "This listing has ended" otherwise.
 */
export default async function SandboxListingPage({ params }: { params: Promise<{ listingId: string }> }) {
  if (!canUseSandboxPages(await headers(), await currentSession())) notFound();
  const { listingId } = await params;
  const listing = await getSandboxListing(getDb(), listingId);
  if (!listing) notFound();
  const base = shopUrl();
  const images = listing.imageUrls.map((url) => listingImageSrc(url, base)).filter((src): src is string => src !== null);
  const aspects = Object.entries(listing.aspects).filter(([, values]) => values.length > 0);

  return (
    <MarketplaceFrame shopName={env.SHOP_NAME}>
      <Link href={sandboxMarketplacePath} className="inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
        <ChevronLeft className="size-4" aria-hidden />
        All listings
      </Link>
      <div className="mt-4 grid gap-8 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        <ListingGallery images={images} title={listing.title} />
        <section aria-labelledby="listing-title" className="min-w-0">
          <h1 id="listing-title" className="font-serif text-2xl leading-tight font-semibold sm:text-3xl">
            {listing.title}
          </h1>
          <p className="mt-2 text-sm text-muted-foreground">
            Condition: <span className="text-foreground">{conditionLabels[listing.condition] ?? listing.condition}</span>
            {listing.conditionDescription ? ` — ${listing.conditionDescription}` : ""}
          </p>
          <div className="mt-5 border-y py-4">
            <p className="font-serif text-3xl font-semibold text-primary" data-testid="sandbox-listing-price">
              {formatEuro(listing.price)}
            </p>
            <p className="mt-1 text-sm" data-testid="sandbox-listing-availability">
              {listing.ended ? (
                <span className="font-medium text-destructive">This listing has ended</span>
              ) : listing.quantity > 0 ? (
                <>
                  <span className="font-medium">{listing.quantity} available</span>
                  <span className="text-muted-foreground"> · Free postage{listing.soldQuantity > 0 ? ` · ${listing.soldQuantity} sold` : ""}</span>
                </>
              ) : (
                <span className="font-medium text-destructive">Out of stock</span>
              )}
            </p>
          </div>
          <div className="mt-5">
            {!listing.ended && listing.quantity > 0 ? (
              <BuyForm listingId={listing.listingId} available={listing.quantity} action={buyListing} />
            ) : (
              <p className="rounded-md bg-muted p-4 text-sm text-muted-foreground">
                {listing.ended ? "The seller has ended this listing; it can no longer be bought." : "Every piece of this listing has been sold. The seller may list more."}
              </p>
            )}
          </div>
          <p className="mt-4 text-xs text-muted-foreground">Listing number {listing.listingId}</p>
        </section>
      </div>

      <div className="mt-10 grid gap-8 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        {aspects.length > 0 ? (
          <section aria-labelledby="specifics-heading">
            <h2 id="specifics-heading" className="font-serif text-xl font-semibold">
              Item specifics
            </h2>
            <dl className="mt-3 divide-y border-y text-sm">
              {aspects.map(([name, values]) => (
                <div key={name} className="grid grid-cols-[minmax(0,2fr)_minmax(0,3fr)] gap-4 py-2">
                  <dt className="text-muted-foreground">{name}</dt>
                  <dd>{values.join(", ")}</dd>
                </div>
              ))}
            </dl>
          </section>
        ) : null}
        {listing.description ? (
          <section aria-labelledby="description-heading">
            <h2 id="description-heading" className="font-serif text-xl font-semibold">
              Description
            </h2>
            <div className="mt-3 text-sm leading-relaxed whitespace-pre-line">{listing.description}</div>
          </section>
        ) : null}
      </div>
    </MarketplaceFrame>
  );
}
