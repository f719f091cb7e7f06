"use client";

import { clsx } from "clsx";
import { ChevronDownIcon } from "lucide-react";
import { useRouter } from "next/navigation";
import { Fragment, useId, useOptimistic, useState, useTransition, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { attributeLabel, attributeNames, type AttributeKey } from "@/lib/labels";
import type { FacetsView, TreeFacetView } from "./facets-view";
import { searchHref, type SearchState } from "./search-params";

type ListKey = "category" | "manufacturer" | "caliber" | "state" | "gender" | "itemType";

function toggled<T>(list: T[], value: T): T[] {
  return list.includes(value) ? list.filter((item) => item !== value) : [...list, value];
}

/**
 * One option with its count. The checkbox sits inside its label, so it needs no id, and the classes are named once in
 * globals.css (`.filter-option`): a category page has over a hundred of these rows, and they are most of its HTML.
 */
function CheckRow({ checked, onChange, label, count, depth = 0 }: { checked: boolean; onChange: () => void; label: ReactNode; count: string; depth?: number }) {
  return (
    <label className="filter-option" style={depth > 0 ? { paddingLeft: `${depth * 0.9}rem` } : undefined}>
      <input type="checkbox" checked={checked} onChange={onChange} />
      <span>{label}</span>
      <span className="filter-count">{count}</span>
    </label>
  );
}

/**
 * A filter group that opens and closes. The browser's own disclosure and checkboxes rather than Radix: the sidebar
 * is on every /search page, and this keeps it out of the scripts the page needs before it can show results.
 */
function FilterSection({ title, defaultOpen = false, children }: { title: string; defaultOpen?: boolean; children: ReactNode }) {
  return (
    <details open={defaultOpen} className="group border-b last:border-b-0">
      <summary className="flex cursor-pointer list-none items-center justify-between gap-4 rounded-md py-3 text-sm font-medium hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring [&::-webkit-details-marker]:hidden">
        {title}
        <ChevronDownIcon className="size-4 shrink-0 text-muted-foreground transition-transform duration-200 group-open:rotate-180" aria-hidden="true" />
      </summary>
      <div className="pb-3 text-sm">{children}</div>
    </details>
  );
}

/** One end of the price range, in euro with at most two decimals. */
function PriceInput({ label, value, onChange, placeholder }: { label: string; value: string; onChange: (value: string) => void; placeholder: string }) {
  const id = useId();
  return (
    <div className="flex-1">
      <label htmlFor={id} className="text-xs text-muted-foreground">
        {label}
      </label>
      <Input id={id} inputMode="decimal" pattern="\d+(\.\d{1,2})?" value={value} onChange={(event) => onChange(event.target.value)} placeholder={placeholder} />
    </div>
  );
}

/** Category and manufacturer trees: a group's count covers everything below it. */
function TreeOptions({ options, selected, onToggle, depth = 0 }: { options: TreeFacetView[]; selected: number[]; onToggle: (id: number) => void; depth?: number }) {
  return options.map((option) => (
    <Fragment key={option.id}>
      <CheckRow checked={selected.includes(option.id)} onChange={() => onToggle(option.id)} label={option.name} count={option.countText} depth={depth} />
      {option.children.length > 0 ? <TreeOptions options={option.children} selected={selected} onToggle={onToggle} depth={depth + 1} /> : null}
    </Fragment>
  ));
}

/**
 * The /search filters with a count beside every option. Every change goes into the address (page back to 1), so the
 * server renders the new results and a reload or a shared link shows the same page.
 */
export function SearchFilters({ state: addressState, facets, className }: { state: SearchState; facets: FacetsView; className?: string }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  // A ticked box shows ticked at once, while the results for it load.
  const [state, showState] = useOptimistic(addressState);
  const [priceMin, setPriceMin] = useState(state.priceMin);
  const [priceMax, setPriceMax] = useState(state.priceMax);

  const apply = (changes: Partial<SearchState>) => {
    const next = { ...state, ...changes, page: 1 };
    startTransition(() => {
      showState(next);
      router.push(searchHref(next), { scroll: false });
    });
  };
  const toggleList = <K extends ListKey>(key: K, value: SearchState[K][number]) =>
    apply({ [key]: toggled(state[key] as SearchState[K][number][], value) } as Partial<SearchState>);

  const attributeSection = (key: Extract<ListKey, AttributeKey>, defaultOpen = false) => {
    const options = facets[key];
    if (options.length === 0 && state[key].length === 0) return null;
    return (
      <FilterSection title={attributeNames[key]} defaultOpen={defaultOpen}>
        <div className={clsx(key === "itemType" && "max-h-72 overflow-y-auto pr-1")}>
          {options.map((option) => (
            <CheckRow
              key={option.value}
              checked={state[key].includes(option.value)}
              onChange={() => toggleList(key, option.value)}
              label={attributeLabel(key, option.value)}
              count={option.countText}
            />
          ))}
        </div>
      </FilterSection>
    );
  };

  const activeCount =
    state.category.length + state.manufacturer.length + state.caliber.length + state.state.length + state.gender.length +
    state.itemType.length + (state.priceMin || state.priceMax ? 1 : 0) + (state.inStock ? 1 : 0) + (state.onSale ? 1 : 0);

  return (
    <div className={clsx("transition-opacity", pending && "opacity-60", className)} aria-busy={pending}>
      <div className="mb-2 flex items-center justify-between">
        <h2 className="font-sans text-base font-semibold">Filters</h2>
        {activeCount > 0 ? (
          <Button
            variant="link"
            size="sm"
            className="h-auto px-0"
            onClick={() =>
              apply({ category: [], manufacturer: [], caliber: [], state: [], gender: [], itemType: [], priceMin: "", priceMax: "", inStock: false, onSale: false })
            }
          >
            Clear all ({activeCount})
          </Button>
        ) : null}
      </div>
      <div className="border-b pb-2">
        <CheckRow checked={state.inStock} onChange={() => apply({ inStock: !state.inStock })} label="In stock only" count={facets.inStockText} />
        {state.onSale ? <CheckRow checked onChange={() => apply({ onSale: false })} label="On sale" count="0" /> : null}
      </div>
      <div>
        {facets.category.length > 0 ? (
          <FilterSection title="Category" defaultOpen>
            <TreeOptions options={facets.category} selected={state.category} onToggle={(id) => toggleList("category", id)} />
          </FilterSection>
        ) : null}
        {facets.manufacturer.length > 0 ? (
          <FilterSection title="Manufacturer" defaultOpen>
            <div className="max-h-80 overflow-y-auto pr-1">
              <TreeOptions options={facets.manufacturer} selected={state.manufacturer} onToggle={(id) => toggleList("manufacturer", id)} />
            </div>
          </FilterSection>
        ) : null}
        <FilterSection title="Price" defaultOpen>
          <form
            className="flex items-end gap-2"
            onSubmit={(event) => {
              event.preventDefault();
              apply({ priceMin: priceMin.trim(), priceMax: priceMax.trim() });
            }}
          >
            <PriceInput label="Min €" value={priceMin} onChange={setPriceMin} placeholder={facets.price?.min ?? ""} />
            <PriceInput label="Max €" value={priceMax} onChange={setPriceMax} placeholder={facets.price?.max ?? ""} />
            <Button type="submit" variant="outline">
              Apply
            </Button>
          </form>
        </FilterSection>
        {attributeSection("caliber", true)}
        {attributeSection("state", true)}
        {attributeSection("gender")}
        {attributeSection("itemType")}
      </div>
    </div>
  );
}
