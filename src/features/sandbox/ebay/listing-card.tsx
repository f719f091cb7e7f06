import Link from "next/link";
import type { Decimal } from "decimal.js";
import { formatEuro } from "@/lib/money";
import { ListingPicture } from "./listing-picture";
import { sandboxMarketplacePath } from "./marketplace-frame";

export type ListingCardView = { listingId: string; title: string; price: Decimal; quantity: number; imageSrc: string | null };

/** One listing in the grid: picture, title, price, and whether any are left. */
export function ListingCard({ listing, priority }: { listing: ListingCardView; priority?: boolean }) {
  return (
    <li>
      <Link href={`${sandboxMarketplacePath}/${listing.listingId}`} className="group block rounded-lg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring" data-testid="sandbox-listing">
        <ListingPicture src={listing.imageSrc} alt={listing.title} sizes="(min-width: 1024px) 25vw, (min-width: 640px) 33vw, 50vw" priority={priority} />
        <p className="mt-2 line-clamp-2 text-sm group-hover:underline">{listing.title}</p>
        <p className="mt-1 font-serif text-lg font-semibold text-primary">{formatEuro(listing.price)}</p>
        <p className="text-xs text-muted-foreground">{listing.quantity > 0 ? `Free postage · ${listing.quantity} available` : "Out of stock"}</p>
      </Link>
    </li>
  );
}
