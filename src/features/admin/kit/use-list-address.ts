"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useState } from "react";

export type ListAddressUpdate = (changes: Record<string, string | undefined>, options?: { push?: boolean; keepPage?: boolean }) => void;

/**
 * A back-office list keeps its state in the address (filters, sort, page in the query), so a filtered, sorted page can
 * be reloaded, bookmarked and shared. `update` writes to it: an empty value drops its key, any change but the page's
 * own goes back to page one, and a new sort order is a history entry of its own (SPEC's two-step back), the rest replace.
 */
export function useListAddress() {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const update: ListAddressUpdate = (changes, options = {}) => {
    const next = new URLSearchParams(params.toString());
    for (const [key, value] of Object.entries(changes)) {
      if (value === undefined || value === "") next.delete(key);
      else next.set(key, value);
    }
    if (!options.keepPage) next.delete("page");
    const href = `${pathname}${next.size ? `?${next.toString()}` : ""}`;
    if (options.push) router.push(href, { scroll: false });
    else router.replace(href, { scroll: false });
  };
  /** Page one is the address without a `page`. */
  const goToPage = (target: number) => update({ page: target > 1 ? String(target) : undefined }, { keepPage: true });
  return { router, params, update, goToPage };
}

/** The search box's text; typing searches after a short pause, so each keystroke does not cost a query. */
export function useDebouncedSearch(currentSearch: string | undefined, update: ListAddressUpdate) {
  const [searchText, setSearchText] = useState(currentSearch ?? "");
  useEffect(() => {
    if (searchText.trim() === (currentSearch ?? "")) return;
    const timer = setTimeout(() => update({ search: searchText.trim() || undefined }), 300);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- update reads the latest address itself
  }, [searchText]);
  return [searchText, setSearchText] as const;
}
