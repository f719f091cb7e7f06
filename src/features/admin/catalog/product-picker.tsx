"use client";

import { formatEuro } from "@/lib/money";
import { SearchToAdd, useSearchTerm } from "../kit/forms/search-to-add";
import { useProductPickerSearch } from "./queries";

/**
 * Finds products by name, brand or id and adds them (a discount's products, an order's lines); one already added is
 * not offered twice. `inStockOnly` offers only products with stock, and says how many each has.
 */
export function ProductPicker({ taken, onAdd, inStockOnly = false }: { taken: ReadonlySet<number>; onAdd: (product: { id: number; name: string }) => void; inStockOnly?: boolean }) {
  const search = useSearchTerm();
  const products = useProductPickerSearch(search.term, inStockOnly);
  return (
    <SearchToAdd
      label="Search products to add"
      placeholder="Add a product by name, brand or #id"
      search={search}
      busy={products.isFetching}
      rows={products.data?.rows}
      added={taken}
      onAdd={(product) => onAdd({ id: product.id, name: product.name })}
      listLabel="Products found"
      noMatch={`No product${inStockOnly ? " in stock" : ""} matches “${search.term.trim()}”.`}
      enterAddsFirst
      listClassName="max-h-64"
    >
      {(row) => (
        <span className="min-w-0 flex-1">
          <span className="block truncate font-medium">{row.name}</span>
          <span className="text-xs text-muted-foreground">
            #{row.id} · {formatEuro(row.price)}
            {inStockOnly ? ` · ${row.stock} in stock` : row.category ? ` · ${row.category}` : ""}
            {row.wsStatus === "OFFLINE" ? " · not in the web shop" : ""}
          </span>
        </span>
      )}
    </SearchToAdd>
  );
}
