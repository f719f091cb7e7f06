"use client";

import Image from "next/image";
import { useState } from "react";
import { cn } from "@/lib/utils";

export const PLACEHOLDER_IMAGE = "/images/other/no_image.jpg";

/**
 * A product picture through the image optimiser. A picture that fails to load, or loads with no width (an empty
 * file), is replaced by the shop's placeholder (SPEC section 3).
 */
export function ProductImage({
  src,
  alt,
  sizes,
  emphasis,
  className,
}: {
  src: string;
  alt: string;
  sizes: string;
  /** "preload" for the one picture that is the page's largest paint; "eager" for pictures above the fold. */
  emphasis?: "preload" | "eager";
  className?: string;
}) {
  const [failed, setFailed] = useState(false);
  return (
    <Image
      src={failed ? PLACEHOLDER_IMAGE : src}
      alt={alt}
      fill
      sizes={sizes}
      preload={emphasis === "preload"}
      loading={emphasis === "eager" ? "eager" : undefined}
      // Both kinds are what the visitor sees first: ahead of the scripts in the browser's queue.
      fetchPriority={emphasis ? "high" : undefined}
      className={cn("object-contain", className)}
      onError={() => setFailed(true)}
      onLoad={(event) => {
        if (event.currentTarget.naturalWidth === 0) setFailed(true);
      }}
    />
  );
}
