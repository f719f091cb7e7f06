"use client";

import { useState } from "react";
import { cn } from "@/lib/utils";
import { ListingPicture } from "./listing-picture";

/** A listing's pictures: the chosen one large, all of them as thumbnails to choose from. */
export function ListingGallery({ images, title }: { images: string[]; title: string }) {
  const [current, setCurrent] = useState(0);
  return (
    <div className="flex flex-col gap-3">
      <ListingPicture src={images[current] ?? null} alt={title} sizes="(min-width: 1024px) 560px, 100vw" priority />
      {images.length > 1 ? (
        <ul className="flex gap-2 overflow-x-auto pb-1" aria-label="Pictures">
          {images.map((image, index) => (
            <li key={image} className="shrink-0">
              <button
                type="button"
                onClick={() => setCurrent(index)}
                aria-label={`Picture ${index + 1} of ${images.length}`}
                aria-current={index === current}
                className={cn("block size-16 rounded-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring sm:size-20", index === current && "ring-2 ring-primary")}
              >
                <ListingPicture src={image} alt="" sizes="80px" className="size-full" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
