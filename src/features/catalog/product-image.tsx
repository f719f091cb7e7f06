"use client";

import { getImageProps } from "next/image";
import { useState, type SyntheticEvent } from "react";
import { preload } from "react-dom";

export const PLACEHOLDER_IMAGE = "/images/other/no_image.jpg";

export type PictureEmphasis = "preload" | "high" | "eager";

/**
 * The optimiser's widths up to the first that covers `widest` image pixels, that one also the fallback `src`. The
 * optimiser offers every width up to 3840 for any `sizes`; a card never needs more than a phone's row at three device
 * pixels per CSS pixel, and each width left out is a hundred bytes less in every card of a cached listing.
 */
function upTo<T extends { src?: string; srcSet?: string }>(props: T, widest: number | undefined): T {
  if (!widest || !props.srcSet) return props;
  const candidates = props.srcSet.split(", ").map((candidate) => {
    const [url = "", width = ""] = candidate.split(" ");
    return { url, width: Number.parseInt(width, 10) };
  });
  const cut = candidates.findIndex((candidate) => candidate.width >= widest);
  const kept = cut === -1 ? candidates : candidates.slice(0, cut + 1);
  return { ...props, srcSet: kept.map((candidate) => `${candidate.url} ${candidate.width}w`).join(", "), src: kept.at(-1)!.url };
}

/** A picture with no width came as an empty file or failed; either way the placeholder shows instead. */
const isBroken = (image: HTMLImageElement) => image.complete && image.naturalWidth === 0;

/**
 * A product picture through the image optimiser. A picture that fails to load, or loads with no width (an empty
 * file), is replaced by the shop's placeholder (SPEC section 3).
 *
 * A plain <img> with the optimiser's attributes rather than next/image's component: a listing hydrates a dozen of
 * these at once, and the component's per-picture hooks and its catch-up for errors before hydration (setting every
 * picture's src again) cost a phone more than the pictures themselves. Errors before hydration are read from the
 * element instead.
 */
export function ProductImage({
  src,
  alt,
  sizes,
  widest,
  emphasis,
  className,
}: {
  src: string;
  alt: string;
  sizes: string;
  /** The most image pixels the picture is ever shown at (its widest CSS width × the device's pixel ratio); all when unset. */
  widest?: number;
  /**
   * "preload" for the one picture that is the page's largest paint; "high" for the first pictures of a listing (a
   * phone's first row), fetched ahead of the scripts; "eager" for the rest above the fold, fetched at once but
   * without jumping the queue.
   */
  emphasis?: PictureEmphasis;
  className?: string;
}) {
  const [failed, setFailed] = useState(false);
  const props = upTo(
    getImageProps({
      src: failed ? PLACEHOLDER_IMAGE : src,
      alt,
      fill: true,
      sizes,
      loading: emphasis ? "eager" : "lazy",
      fetchPriority: emphasis === "preload" || emphasis === "high" ? "high" : undefined,
    }).props,
    widest,
  );
  // In the document's head, so the picture is fetched before the body that shows it has been read.
  if (emphasis === "preload" && props.src) preload(props.src, { as: "image", imageSrcSet: props.srcSet, imageSizes: props.sizes, fetchPriority: "high" });
  const check = (event: SyntheticEvent<HTMLImageElement>) => {
    if (isBroken(event.currentTarget)) setFailed(true);
  };
  return (
    // eslint-disable-next-line @next/next/no-img-element -- the optimiser's attributes, from getImageProps above
    <img
      {...props}
      alt={alt}
      className={className ? `object-contain ${className}` : "object-contain"}
      ref={(image) => {
        if (image && isBroken(image)) setFailed(true);
      }}
      onError={() => setFailed(true)}
      onLoad={check}
    />
  );
}
