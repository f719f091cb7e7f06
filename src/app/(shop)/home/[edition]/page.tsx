import { ArrowRight } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { env } from "@/env";
import { Button } from "@/components/ui/button";
import { HOME_EDITION } from "@/features/catalog/catalogue-addresses.mjs";
import { formatMatchCount } from "@/features/catalog/match-count";
import { ProductListing } from "@/features/catalog/product-listing";
import { toCardView } from "@/features/catalog/product-view";
import { shopIdentity } from "@/lib/shop";
import { getManyProductsInput } from "@/server/catalog/schemas";
import { cachedProductListing } from "@/server/catalog/visitor-cache";
import { getDb } from "@/server/db/client";
import { cachedNavbarData } from "@/server/navbar/visitor-cache";

// The home page, at / (the front door, or src/proxy.ts, serves / from here). Under a path segment it is rendered on its first visit and
// then kept in Next's cache until what it shows changes (src/server/cache/catalogue.ts); a page at / itself would be
// rendered while the shop is built, when there is no database to read. `force-static` keeps per-request headers out
// of the render; `revalidate` gives the SPEC's `s-maxage=1, stale-while-revalidate` (next.config.ts `expireTime`).
export const dynamic = "force-static";
export const revalidate = 1;
export function generateStaticParams(): { edition: string }[] {
  return [];
}

export const metadata: Metadata = { alternates: { canonical: "/" } };

const SHELF_SIZE = 8;

function Shelf({ id, title, intro, href, children }: { id: string; title: string; intro: string; href: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id} className="py-8 sm:py-10">
      <div className="mb-5 flex flex-wrap items-end justify-between gap-2">
        <div>
          <h2 id={id} className="text-2xl font-semibold sm:text-3xl">
            {title}
          </h2>
          <p className="mt-1 text-sm text-muted-foreground">{intro}</p>
        </div>
        <Link href={href} className="inline-flex items-center gap-1 text-sm font-medium text-primary hover:underline">
          See all <ArrowRight className="size-4" aria-hidden="true" />
        </Link>
      </div>
      {children}
    </section>
  );
}

/** Home: what came in, what is on sale, and ways to browse by category and by brand. */
export default async function HomePage({ params }: { params: Promise<{ edition: string }> }) {
  if ((await params).edition !== HOME_EDITION) notFound();
  const db = getDb();
  const [arrivals, onSale, navbar] = await Promise.all([
    cachedProductListing(db, getManyProductsInput.parse({ orderBy: { createdAt: "desc" } })),
    cachedProductListing(db, getManyProductsInput.parse({ orderBy: { createdAt: "desc" }, onSale: true, inStock: true })),
    cachedNavbarData(db),
  ]);
  const brands = navbar.manufacturers[0]?.children ?? [];

  return (
    <div className="mx-auto max-w-7xl px-4 sm:px-6">
      <section className="grid gap-6 py-10 sm:py-14 lg:grid-cols-[3fr_2fr] lg:items-end">
        <div>
          <p className="text-sm font-medium uppercase tracking-widest text-primary">{env.SHOP_NAME}</p>
          <h1 className="mt-2 max-w-2xl text-3xl font-semibold leading-tight sm:text-5xl">{shopIdentity.strapLine}</h1>
          <p className="mt-4 max-w-2xl text-muted-foreground">{shopIdentity.description}</p>
          <div className="mt-6 flex flex-wrap gap-3">
            <Button asChild size="lg">
              <Link href="/search">Browse the shop</Link>
            </Button>
            <Button asChild size="lg" variant="outline">
              <Link href="/search?sort=createdAt:desc&inStock=1">In stock now</Link>
            </Button>
          </div>
        </div>
        <p className="text-sm text-muted-foreground lg:text-right">
          {formatMatchCount(arrivals.pagination.totalItems, arrivals.pagination.totalItemsExact)} pieces in the shop, each described by a watchmaker.
        </p>
      </section>

      <section aria-labelledby="browse-categories" className="border-y py-8">
        <h2 id="browse-categories" className="sr-only">
          Browse by category
        </h2>
        <ul className="grid grid-cols-2 gap-x-6 gap-y-6 sm:grid-cols-3 lg:grid-cols-5">
          {navbar.categories.map((category) => (
            <li key={category.id}>
              {/* Browse lists are not prefetched: dozens of links would each be fetched on a phone as they scroll into view. */}
              <Link href={category.href ?? "/404"} prefetch={false} className="font-serif text-lg font-semibold hover:text-primary">
                {category.name}
              </Link>
              <ul className="mt-2 space-y-1 text-sm">
                {(category.children ?? []).slice(0, 5).map((child) => (
                  <li key={child.id}>
                    <Link href={child.href ?? "/404"} prefetch={false} className="text-muted-foreground hover:text-foreground hover:underline">
                      {child.name}
                    </Link>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      </section>

      {/* Below the first screen on a phone and at its edge on a desktop: the shelves' pictures load as the visitor
          gets near them, and leave the first screen's stylesheet and scripts the bandwidth. */}
      <Shelf id="new-arrivals" title="New arrivals" intro="Fresh from the workbench and the buying trips." href="/search?sort=createdAt:desc">
        <ProductListing products={arrivals.products.slice(0, SHELF_SIZE).map(toCardView)} priorityCount={0} />
      </Shelf>

      {onSale.products.length > 0 ? (
        <Shelf id="on-sale" title="On sale" intro="Discounted pieces, while they last." href="/search?onSale=1&inStock=1">
          <ProductListing products={onSale.products.slice(0, SHELF_SIZE).map(toCardView)} priorityCount={0} />
        </Shelf>
      ) : null}

      <section aria-labelledby="brands" className="py-8 sm:py-10">
        <h2 id="brands" className="text-2xl font-semibold sm:text-3xl">
          Brands
        </h2>
        <p className="mt-1 text-sm text-muted-foreground">Watches and parts by the makers collectors know.</p>
        <ul className="mt-5 flex flex-wrap gap-2">
          {brands.map((brand) => (
            <li key={brand.id}>
              <Link href={brand.href ?? "/404"} prefetch={false} className="inline-block rounded-full border bg-card px-4 py-2 text-sm hover:border-primary hover:text-primary">
                {brand.name}
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
