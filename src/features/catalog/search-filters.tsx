"use client";

import { useRouter } from "next/navigation";
import { useId, useState, useTransition, type ReactNode } from "react";
import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from "@/components/ui/accordion";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Input } from "@/components/ui/input";
import { attributeLabel, attributeNames, type AttributeKey } from "@/lib/labels";
import { formatEuro } from "@/lib/money";
import { cn } from "@/lib/utils";
import type { TreeFacetOption } from "@/server/catalog/schemas";
import type { FacetsView } from "./facets-view";
import { formatMatchCount } from "./match-count";
import { searchHref, type SearchState } from "./search-params";

type ListKey = "category" | "manufacturer" | "caliber" | "state" | "gender" | "itemType";

function toggled<T>(list: T[], value: T): T[] {
  return list.includes(value) ? list.filter((item) => item !== value) : [...list, value];
}

function CheckRow({ checked, onChange, label, count, depth = 0 }: { checked: boolean; onChange: () => void; label: ReactNode; count: string; depth?: number }) {
  const id = useId();
  return (
    <div className="flex items-center gap-2 py-1" style={{ paddingLeft: `${depth * 0.9}rem` }}>
      <Checkbox id={id} checked={checked} onCheckedChange={onChange} />
      <label htmlFor={id} className="flex flex-1 cursor-pointer items-baseline justify-between gap-2 text-sm">
        <span>{label}</span>
        <span className="text-xs tabular-nums text-muted-foreground">{count}</span>
      </label>
    </div>
  );
}

/** Category and manufacturer trees: a group's count covers everything below it. */
function TreeOptions({ options, selected, onToggle, exact, depth = 0 }: { options: TreeFacetOption[]; selected: number[]; onToggle: (id: number) => void; exact: boolean; depth?: number }) {
  return options.map((option) => (
    <div key={option.id}>
      <CheckRow checked={selected.includes(option.id)} onChange={() => onToggle(option.id)} label={option.name} count={formatMatchCount(option.count, exact)} depth={depth} />
      {option.children.length > 0 ? <TreeOptions options={option.children} selected={selected} onToggle={onToggle} exact={exact} depth={depth + 1} /> : null}
    </div>
  ));
}

/**
 * The /search filters with a count beside every option. Every change goes into the address (page back to 1), so the
 * server renders the new results and a reload or a shared link shows the same page.
 */
export function SearchFilters({ state, facets, className }: { state: SearchState; facets: FacetsView; className?: string }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [priceMin, setPriceMin] = useState(state.priceMin);
  const [priceMax, setPriceMax] = useState(state.priceMax);
  const priceMinId = useId();
  const priceMaxId = useId();

  const apply = (changes: Partial<SearchState>) => {
    startTransition(() => router.push(searchHref({ ...state, ...changes, page: 1 }), { scroll: false }));
  };
  const toggleList = <K extends ListKey>(key: K, value: SearchState[K][number]) =>
    apply({ [key]: toggled(state[key] as SearchState[K][number][], value) } as Partial<SearchState>);

  const attributeSection = (key: Extract<ListKey, AttributeKey>) => {
    const options = facets[key];
    if (options.length === 0 && state[key].length === 0) return null;
    return (
      <AccordionItem value={key}>
        <AccordionTrigger>{attributeNames[key]}</AccordionTrigger>
        <AccordionContent>
          <div className={cn(key === "itemType" && "max-h-72 overflow-y-auto pr-1")}>
            {options.map((option) => (
              <CheckRow
                key={option.value}
                checked={state[key].includes(option.value)}
                onChange={() => toggleList(key, option.value)}
                label={attributeLabel(key, option.value)}
                count={formatMatchCount(option.count, facets.exact)}
              />
            ))}
          </div>
        </AccordionContent>
      </AccordionItem>
    );
  };

  const activeCount =
    state.category.length + state.manufacturer.length + state.caliber.length + state.state.length + state.gender.length +
    state.itemType.length + (state.priceMin || state.priceMax ? 1 : 0) + (state.inStock ? 1 : 0) + (state.onSale ? 1 : 0);

  return (
    <div className={cn("transition-opacity", pending && "opacity-60", className)} aria-busy={pending}>
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
        <CheckRow checked={state.inStock} onChange={() => apply({ inStock: !state.inStock })} label="In stock only" count={formatMatchCount(facets.inStock, facets.exact)} />
        {state.onSale ? <CheckRow checked onChange={() => apply({ onSale: false })} label="On sale" count="0" /> : null}
      </div>
      <Accordion type="multiple" defaultValue={["category", "manufacturer", "price", "caliber", "state"]}>
        {facets.category.length > 0 ? (
          <AccordionItem value="category">
            <AccordionTrigger>Category</AccordionTrigger>
            <AccordionContent>
              <TreeOptions options={facets.category} selected={state.category} onToggle={(id) => toggleList("category", id)} exact={facets.exact} />
            </AccordionContent>
          </AccordionItem>
        ) : null}
        {facets.manufacturer.length > 0 ? (
          <AccordionItem value="manufacturer">
            <AccordionTrigger>Manufacturer</AccordionTrigger>
            <AccordionContent>
              <div className="max-h-80 overflow-y-auto pr-1">
                <TreeOptions options={facets.manufacturer} selected={state.manufacturer} onToggle={(id) => toggleList("manufacturer", id)} exact={facets.exact} />
              </div>
            </AccordionContent>
          </AccordionItem>
        ) : null}
        <AccordionItem value="price">
          <AccordionTrigger>Price</AccordionTrigger>
          <AccordionContent>
            <form
              className="flex items-end gap-2"
              onSubmit={(event) => {
                event.preventDefault();
                apply({ priceMin: priceMin.trim(), priceMax: priceMax.trim() });
              }}
            >
              <div className="flex-1">
                <label htmlFor={priceMinId} className="text-xs text-muted-foreground">
                  Min €
                </label>
                <Input id={priceMinId} inputMode="decimal" pattern="\d+(\.\d{1,2})?" value={priceMin} onChange={(e) => setPriceMin(e.target.value)} placeholder={facets.price ? formatEuro(facets.price.min) : ""} />
              </div>
              <div className="flex-1">
                <label htmlFor={priceMaxId} className="text-xs text-muted-foreground">
                  Max €
                </label>
                <Input id={priceMaxId} inputMode="decimal" pattern="\d+(\.\d{1,2})?" value={priceMax} onChange={(e) => setPriceMax(e.target.value)} placeholder={facets.price ? formatEuro(facets.price.max) : ""} />
              </div>
              <Button type="submit" variant="outline">
                Apply
              </Button>
            </form>
          </AccordionContent>
        </AccordionItem>
        {attributeSection("caliber")}
        {attributeSection("state")}
        {attributeSection("gender")}
        {attributeSection("itemType")}
      </Accordion>
    </div>
  );
}
