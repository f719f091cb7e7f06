"use client";

import { ProductGridCard, ProductListCard } from "./product-card";
import type { ProductCardView } from "./product-view";
import { useListingLayout } from "./use-listing-layout";

/** Products in the visitor's chosen layout: 2, 3 or 4 columns by screen width, or one row per product. */
export function ProductListing({ products, priorityCount = 4 }: { products: ProductCardView[]; priorityCount?: number }) {
  const [layout] = useListingLayout();
  if (layout === "list") {
    return (
      <ul className="flex flex-col gap-3" data-layout="list">
        {products.map((product, index) => (
          <li key={product.id} className="flex">
            <ProductListCard product={product} priority={index < priorityCount} />
          </li>
        ))}
      </ul>
    );
  }
  return (
    <ul className="grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-3 lg:grid-cols-4" data-layout="grid">
      {products.map((product, index) => (
        <li key={product.id} className="flex">
          <ProductGridCard product={product} priority={index < priorityCount} />
        </li>
      ))}
    </ul>
  );
}
