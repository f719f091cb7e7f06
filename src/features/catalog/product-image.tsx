"use client";

import Image from "next/image";
import { useState } from "react";
import { cn } from "@/lib/utils";

export const PLACEHOLDER_IMAGE = "/images/other/no_image.jpg";

export type PictureEmphasis = "preload" | "high" | "eager";

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
  /**
   * "preload" for the one picture that is the page's largest paint; "high" for the first pictures of a listing (a
   * phone's first row), fetched ahead of the scripts; "eager" for the rest above the fold, fetched at once but
   * without jumping the queue.
   */
  emphasis?: PictureEmphasis;
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
      loading={emphasis === "high" || emphasis === "eager" ? "eager" : undefined}
      fetchPriority={emphasis === "preload" || emphasis === "high" ? "high" : undefined}
      className={cn("object-contain", className)}
      onError={() => setFailed(true)}
      onLoad={(event) => {
        if (event.currentTarget.naturalWidth === 0) setFailed(true);
      }}
    />
  );
}
