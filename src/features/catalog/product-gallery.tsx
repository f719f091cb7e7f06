"use client";

import { useState } from "react";
import { clsx } from "clsx";
import { ProductImage } from "./product-image";

/** The product's pictures: a large square one and, when there are more, thumbnails to switch between them. */
export function ProductGallery({ images, name }: { images: string[]; name: string }) {
  const [current, setCurrent] = useState(0);
  const shown = images[current] ?? images[0] ?? "";
  return (
    <div className="flex flex-col gap-3">
      <div className="relative aspect-square overflow-hidden rounded-lg border bg-muted">
        <ProductImage key={shown} src={shown} alt={name} emphasis="preload" sizes="(min-width: 1280px) 600px, (min-width: 1024px) 50vw, 100vw" />
      </div>
      {images.length > 1 ? (
        <ul className="flex gap-2 overflow-x-auto" aria-label="Pictures">
          {images.map((image, index) => (
            <li key={image}>
              <button
                type="button"
                onClick={() => setCurrent(index)}
                aria-label={`Picture ${index + 1} of ${images.length}`}
                aria-current={index === current}
                className={clsx("relative block size-20 overflow-hidden rounded-md border bg-muted focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring", index === current && "ring-2 ring-primary")}
              >
                <ProductImage src={image} alt="" sizes="80px" widest={240} />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
