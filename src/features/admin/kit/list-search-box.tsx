"use client";

import { Search } from "lucide-react";
import { useRef } from "react";
import { AdminInput, AdminKbd } from "@/components/ui/admin-form-controls";
import { cn } from "@/lib/utils";
import { useDebouncedSearch, type ListAddressUpdate } from "./use-list-address";
import { useShortcut } from "./use-shortcut";

/** A list's search field: it writes `search` to the address after a short pause, and `/` puts the cursor in it. */
export function ListSearchBox({ label, placeholder, currentSearch, update, className }: { label: string; placeholder: string; currentSearch: string | undefined; update: ListAddressUpdate; className?: string }) {
  const searchBox = useRef<HTMLInputElement>(null);
  const [searchText, setSearchText] = useDebouncedSearch(currentSearch, update);
  useShortcut("/", () => searchBox.current?.focus());
  return (
    <div className={cn("relative w-full", className)}>
      <Search className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground" />
      <AdminInput ref={searchBox} type="search" aria-label={label} placeholder={placeholder} value={searchText} onChange={(event) => setSearchText(event.target.value)} className="pr-10 pl-8" />
      <AdminKbd className="absolute top-1/2 right-2 -translate-y-1/2">/</AdminKbd>
    </div>
  );
}
