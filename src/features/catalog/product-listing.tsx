"use client";

import { ProductGridCard, ProductListCard } from "./product-card";
import type { PictureEmphasis } from "./product-image";
import type { ProductCardView } from "./product-view";
import { useListingLayout } from "./use-listing-layout";

/** A phone's first row: the pictures a visitor sees first wherever the listing starts on screen. */
const FIRST_ROW = 2;

/**
 * Products in the visitor's chosen layout: 2, 3 or 4 columns by screen width, or one row per product. The first
 * `priorityCount` pictures load at once, the first row of them ahead of everything else.
 */
export function ProductListing({ products, priorityCount = 4 }: { products: ProductCardView[]; priorityCount?: number }) {
  const [layout] = useListingLayout();
  const emphasis = (index: number): PictureEmphasis | undefined => (index >= priorityCount ? undefined : index < FIRST_ROW ? "high" : "eager");
  if (layout === "list") {
    return (
      <ul className="flex flex-col gap-3" data-layout="list">
        {products.map((product, index) => (
          <li key={product.id} className="flex">
            <ProductListCard product={product} emphasis={emphasis(index)} />
          </li>
        ))}
      </ul>
    );
  }
  return (
    <ul className="grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-3 lg:grid-cols-4" data-layout="grid">
      {products.map((product, index) => (
        <li key={product.id} className="flex">
          <ProductGridCard product={product} emphasis={emphasis(index)} />
        </li>
      ))}
    </ul>
  );
}
