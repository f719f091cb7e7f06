import Image from "next/image";
import { cn } from "@/lib/utils";

/**
 * A listing's picture as stored in its inventory item. Shown as is, without the shop's image optimiser: the address
 * is whatever the seller sent the marketplace, and the optimiser fetches only from the shop's own bucket.
 */
export function ListingPicture({ src, alt, sizes, priority, className }: { src: string | null; alt: string; sizes: string; priority?: boolean; className?: string }) {
  return (
    <div className={cn("relative aspect-square overflow-hidden rounded-lg border bg-muted", className)}>
      {src ? (
        <Image src={src} alt={alt} fill sizes={sizes} unoptimized preload={priority} className="object-contain" />
      ) : (
        <span className="absolute inset-0 flex items-center justify-center text-xs text-muted-foreground">No picture</span>
      )}
    </div>
  );
}
