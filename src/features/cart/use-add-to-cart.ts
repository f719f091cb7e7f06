"use client";

import { useState } from "react";
import { useCart, type AddToCartLine } from "./cart-context";

export type { AddToCartLine };

/**
 * Adds one piece of a product to the cart, for product cards: `pendingProductId` is the product being added, for
 * its spinner (SPEC section 4). The server prices the cart; the `price` given here is only kept for the visitor's
 * local copy and never trusted.
 */
export function useAddToCart() {
  const cart = useCart();
  const [pendingProductId, setPendingProductId] = useState<number | null>(null);
  async function addToCart(line: AddToCartLine) {
    setPendingProductId(line.productId);
    try {
      await cart.addToCart(line);
    } finally {
      setPendingProductId((current) => (current === line.productId ? null : current));
    }
  }
  return { addToCart, pendingProductId };
}
