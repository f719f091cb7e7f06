"use client";

import { useSyncExternalStore } from "react";

/** A visitor's cart line as kept in the browser under `cartItems` (SPEC section 3). Only id and quantity are sent on. */
export type LocalCartItem = { productId: number; name: string; price: string; quantity: number };

const KEY = "cartItems";
const listeners = new Set<() => void>();
// One empty cart, the same array the server's snapshot gives: a new one after hydration re-renders every page's cart.
const empty: LocalCartItem[] = [];
let cached: { raw: string | null; items: LocalCartItem[] } = { raw: null, items: empty };

function isItem(value: unknown): value is LocalCartItem {
  if (!value || typeof value !== "object") return false;
  const item = value as Record<string, unknown>;
  return Number.isInteger(item.productId) && (item.productId as number) > 0 && Number.isInteger(item.quantity) && (item.quantity as number) > 0;
}

/** The stored lines, skipping anything malformed (storage is the user's to edit). */
export function readLocalCart(): LocalCartItem[] {
  let raw: string | null = null;
  try {
    raw = window.localStorage.getItem(KEY);
  } catch {
    return empty;
  }
  if (raw === cached.raw) return cached.items;
  let items: LocalCartItem[] = [];
  try {
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    items = Array.isArray(parsed)
      ? parsed.filter(isItem).map((item) => ({ productId: item.productId, name: String(item.name ?? ""), price: String(item.price ?? ""), quantity: Math.min(item.quantity, 999) }))
      : [];
  } catch {
    items = [];
  }
  cached = { raw, items };
  return items;
}

export function writeLocalCart(items: LocalCartItem[]) {
  try {
    if (items.length === 0) window.localStorage.removeItem(KEY);
    else window.localStorage.setItem(KEY, JSON.stringify(items));
  } catch {
    // Without storage the cart cannot outlive the page; nothing better to do.
  }
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  // Another tab changed the cart.
  const onStorage = (event: StorageEvent) => {
    if (event.key === KEY || event.key === null) listener();
  };
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

export function useLocalCartItems(): LocalCartItem[] {
  return useSyncExternalStore(subscribe, readLocalCart, () => empty);
}
