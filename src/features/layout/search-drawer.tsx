"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useId, useState, type ReactElement } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle, SheetTrigger } from "@/components/ui/sheet";
import { Skeleton } from "@/components/ui/skeleton";
import { formatMatchCount } from "@/features/catalog/match-count";
import { Price } from "@/features/catalog/price";
import { useProductSearch } from "@/features/catalog/queries";
import { ProductImage } from "@/features/catalog/product-image";
import { searchResultsHref } from "@/features/catalog/search-params";

/** SPEC sections 5 and 9: search after a 500 ms pause, only beyond 2 characters, showing at most 8 results. */
const SEARCH_PAUSE_MS = 500;
const MIN_LENGTH = 3;
const MAX_RESULTS = 8;

function useDebounced(value: string, delay: number): string {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return debounced;
}

/** The search drawer: results while typing, and a way to the full /search page. Loaded on first use, open. */
export default function SearchDrawer({ trigger }: { trigger: ReactElement }) {
  const [open, setOpen] = useState(true);
  const [text, setText] = useState("");
  const inputId = useId();
  const router = useRouter();
  const term = useDebounced(text.trim(), SEARCH_PAUSE_MS);
  const enabled = term.length >= MIN_LENGTH;
  const results = useProductSearch(term, enabled);
  const products = results.data?.products.slice(0, MAX_RESULTS) ?? [];

  return (
    <Sheet open={open} onOpenChange={setOpen}>
      <SheetTrigger asChild>{trigger}</SheetTrigger>
      <SheetContent side="right" className="gap-0 sm:max-w-lg">
        <SheetHeader>
          <SheetTitle>Search</SheetTitle>
          <SheetDescription>Find a watch or a part by name, brand, caliber or reference.</SheetDescription>
        </SheetHeader>
        <form
          role="search"
          className="px-4"
          onSubmit={(event) => {
            event.preventDefault();
            if (text.trim().length === 0) return;
            setOpen(false);
            router.push(searchResultsHref(text.trim()));
          }}
        >
          <label htmlFor={inputId} className="mb-1.5 block text-sm font-medium">
            I am looking for...
          </label>
          <Input
            id={inputId}
            type="search"
            autoComplete="off"
            value={text}
            onChange={(event) => setText(event.target.value)}
            placeholder="Seiko 6139, Omega crown, crystal 30 mm"
            autoFocus
          />
        </form>
        <div className="mt-4 flex-1 overflow-y-auto px-4 pb-4" aria-live="polite">
          {enabled && results.isPending ? (
            <ul className="flex flex-col gap-3" aria-label="Loading results">
              {Array.from({ length: 4 }, (_, index) => (
                <li key={index} className="flex gap-3">
                  <Skeleton className="size-16" />
                  <div className="flex flex-1 flex-col gap-2 py-1">
                    <Skeleton className="h-4 w-3/4" />
                    <Skeleton className="h-4 w-1/4" />
                  </div>
                </li>
              ))}
            </ul>
          ) : null}
          {enabled && results.isSuccess && products.length === 0 ? (
            <p className="py-6 text-center text-sm text-muted-foreground">No products found for &quot;{term}&quot;</p>
          ) : null}
          {enabled && products.length > 0 ? (
            <>
              <ul className="flex flex-col divide-y" aria-label="Search results">
                {products.map((product) => (
                  <li key={product.id}>
                    <Link
                      href={`/product/${product.id}`}
                      onClick={() => setOpen(false)}
                      className="flex items-center gap-3 rounded-md py-2 hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                    >
                      <span className="relative size-16 shrink-0 overflow-hidden rounded-md bg-muted">
                        <ProductImage src={product.image} alt="" sizes="64px" widest={192} />
                      </span>
                      <span className="flex min-w-0 flex-col">
                        <span className="truncate text-xs uppercase tracking-wide text-muted-foreground">{product.manufacturer}</span>
                        <span className="line-clamp-2 text-sm font-medium">{product.name}</span>
                        <Price price={product.price.toFixed(2)} discountedPrice={product.discount?.discountedPrice.toFixed(2)} className="text-sm" />
                      </span>
                    </Link>
                  </li>
                ))}
              </ul>
              <Button asChild variant="outline" className="mt-4 w-full">
                <Link href={searchResultsHref(term)} onClick={() => setOpen(false)}>
                  View all results
                  {results.data ? <span className="text-muted-foreground">({formatMatchCount(results.data.pagination.totalItems, results.data.pagination.totalItemsExact)})</span> : null}
                </Link>
              </Button>
            </>
          ) : null}
          {!enabled ? <p className="py-6 text-center text-sm text-muted-foreground">Type at least three letters to search.</p> : null}
        </div>
      </SheetContent>
    </Sheet>
  );
}
