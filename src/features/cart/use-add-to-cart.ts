"use client";

import { useState } from "react";

export type AddToCartLine = { productId: number; name: string; price: string };

/**
 * Adds one piece of a product to the cart. The cart itself (local for visitors, on the server for customers) comes
 * with the accounts and cart issue; product cards call this hook so the cart can replace its body alone.
 */
export function useAddToCart() {
  const [pendingProductId, setPendingProductId] = useState<number | null>(null);
  async function addToCart(line: AddToCartLine) {
    setPendingProductId(line.productId);
    try {
      const stored = JSON.parse(window.localStorage.getItem("cartItems") ?? "[]") as (AddToCartLine & { quantity: number })[];
      const existing = stored.find((item) => item.productId === line.productId);
      if (existing) existing.quantity += 1;
      else stored.push({ ...line, quantity: 1 });
      window.localStorage.setItem("cartItems", JSON.stringify(stored));
    } finally {
      setPendingProductId(null);
    }
  }
  return { addToCart, pendingProductId };
}
