"use client";

import { useCallback, useSyncExternalStore } from "react";

export type ListingLayout = "grid" | "list";

/** The listing layout preference, kept in local storage under `layout` (SPEC section 2), grid by default. */
const STORAGE_KEY = "layout";
const CHANGE_EVENT = "listing-layout-change";

function read(): ListingLayout {
  try {
    return window.localStorage.getItem(STORAGE_KEY) === "list" ? "list" : "grid";
  } catch {
    return "grid";
  }
}

function subscribe(onChange: () => void) {
  window.addEventListener(CHANGE_EVENT, onChange);
  // Another tab changed it.
  window.addEventListener("storage", onChange);
  return () => {
    window.removeEventListener(CHANGE_EVENT, onChange);
    window.removeEventListener("storage", onChange);
  };
}

export function useListingLayout(): [ListingLayout, (layout: ListingLayout) => void] {
  // The server renders the default; the stored choice applies right after hydration.
  const layout = useSyncExternalStore(subscribe, read, () => "grid" as const);
  const setLayout = useCallback((next: ListingLayout) => {
    window.localStorage.setItem(STORAGE_KEY, next);
    window.dispatchEvent(new Event(CHANGE_EVENT));
  }, []);
  return [layout, setLayout];
}
