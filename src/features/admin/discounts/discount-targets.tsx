"use client";

import { AlertTriangle, UserRound, X } from "lucide-react";
import { useMemo, type ReactNode } from "react";
import { AdminBadge } from "@/components/ui/admin-badge";
import { AdminLabel, AdminSelect } from "@/components/ui/admin-form-controls";
import { cn } from "@/lib/utils";
import type { DiscountGroupChoice, DiscountTargetCustomer, DiscountTargetPreviewInput } from "@/server/discounts/admin-schemas";
import { SEARCH_PAUSE_MS, SearchToAdd, useSearchTerm } from "../kit/forms/search-to-add";
import { useDebounced } from "../kit/forms/use-debounced";
import { formatCount } from "../kit/format";
import { useDiscountCustomerSearch, useDiscountTargetPreview } from "./queries";

// Choosing who or what a discount is for: the chosen products and customers as chips, the customer search, the
// category and manufacturer pickers, and the warning of what saving the targets changes.

function Chip({ children, onRemove, label }: { children: ReactNode; onRemove: () => void; label: string }) {
  return (
    <li className="inline-flex max-w-full items-center gap-1 rounded-full border bg-muted/50 py-0.5 pr-1 pl-2.5 text-xs">
      <span className="truncate">{children}</span>
      <button type="button" onClick={onRemove} aria-label={label} className="rounded-full p-0.5 text-muted-foreground hover:bg-muted hover:text-foreground">
        <X className="size-3" />
      </button>
    </li>
  );
}

/** The chosen products, the first ones by name and how many more; each can be taken off, or all at once. */
const SHOWN_CHIPS = 60;

export function ChosenList<T>({ items, render, keyOf, onRemove, onClear, noun }: {
  items: T[];
  render: (item: T) => ReactNode;
  keyOf: (item: T) => string | number;
  onRemove: (item: T) => void;
  onClear: () => void;
  noun: string;
}) {
  if (items.length === 0) return null;
  return (
    <div className="space-y-1.5">
      <div className="flex items-center justify-between text-xs text-muted-foreground">
        <span>
          {formatCount(items.length)} {noun}
          {items.length === 1 ? "" : "s"} chosen one by one
        </span>
        <button type="button" onClick={onClear} className="hover:text-destructive hover:underline">
          Remove all
        </button>
      </div>
      <ul className="flex max-h-48 flex-wrap gap-1.5 overflow-y-auto" aria-label={`Chosen ${noun}s`}>
        {items.slice(0, SHOWN_CHIPS).map((item) => (
          <Chip key={keyOf(item)} onRemove={() => onRemove(item)} label={`Remove ${String(keyOf(item))}`}>
            {render(item)}
          </Chip>
        ))}
        {items.length > SHOWN_CHIPS ? <li className="px-2 py-0.5 text-xs text-muted-foreground">and {formatCount(items.length - SHOWN_CHIPS)} more</li> : null}
      </ul>
    </div>
  );
}

export function CustomerSearch({ chosen, onAdd }: { chosen: ReadonlySet<string>; onAdd: (customer: DiscountTargetCustomer) => void }) {
  const search = useSearchTerm();
  const customers = useDiscountCustomerSearch(search.term);
  return (
    <SearchToAdd
      label="Search customers to add"
      placeholder="Add a customer by name or e-mail"
      search={search}
      busy={customers.isFetching}
      rows={customers.data}
      added={chosen}
      onAdd={onAdd}
      listLabel="Customers found"
      noMatch={`No customer matches “${search.term.trim()}”.`}
    >
      {(row) => (
        <>
          <UserRound className="size-4 shrink-0 text-brass" />
          <span className="min-w-0 flex-1">
            <span className="block truncate font-medium">
              {row.name ?? row.email} {row.role === "VIP" ? <AdminBadge tone="brass">VIP</AdminBadge> : null}
            </span>
            <span className="block truncate text-xs text-muted-foreground">{row.email}</span>
          </span>
        </>
      )}
    </SearchToAdd>
  );
}

/** A list of groups (categories or manufacturers) chosen from a select, each shown as a chip with its path. */
export function GroupPicker({ label, choices, chosen, onChange, empty }: { label: string; choices: DiscountGroupChoice[] | undefined; chosen: number[]; onChange: (ids: number[]) => void; empty: string }) {
  const byId = new Map(choices?.map((choice) => [choice.id, choice.label]));
  const id = `field-${label.toLowerCase()}`;
  return (
    <div className="space-y-1.5">
      <AdminLabel htmlFor={id}>{label}</AdminLabel>
      <AdminSelect
        id={id}
        value=""
        onChange={(event) => {
          const picked = Number(event.target.value);
          if (picked && !chosen.includes(picked)) onChange([...chosen, picked]);
        }}
      >
        <option value="">{empty}</option>
        {choices?.map((choice) => (
          <option key={choice.id} value={choice.id} disabled={chosen.includes(choice.id)}>
            {choice.label}
          </option>
        ))}
      </AdminSelect>
      {chosen.length ? (
        <ul className="flex flex-wrap gap-1.5" aria-label={`Chosen ${label.toLowerCase()}`}>
          {chosen.map((entry) => (
            <Chip key={entry} onRemove={() => onChange(chosen.filter((other) => other !== entry))} label={`Remove ${byId.get(entry) ?? entry}`}>
              {byId.get(entry) ?? `#${entry}`} <span className="text-muted-foreground">and below</span>
            </Chip>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** The warning before saving targets: how many get the discount, and how many move from another discount. */
export function TargetPreview({ input, noun }: { input: DiscountTargetPreviewInput | null; noun: "product" | "customer" }) {
  const settled = useDebounced(JSON.stringify(input), SEARCH_PAUSE_MS);
  const preview = useDiscountTargetPreview(useMemo(() => JSON.parse(settled) as DiscountTargetPreviewInput | null, [settled]));
  if (!input) return <p className="text-xs text-muted-foreground">Nothing chosen yet: the discount applies to no {noun} until you choose some.</p>;
  if (preview.error) return <p className="text-xs text-destructive">{preview.error.message}</p>;
  const data = preview.data;
  if (!data) return <p className="text-xs text-muted-foreground">Counting…</p>;
  const plural = (count: number) => `${formatCount(count)} ${noun}${count === 1 ? "" : "s"}`;
  return (
    <div className={cn("space-y-1 rounded-md border px-3 py-2 text-xs", data.moved ? "border-amber-500/40 bg-amber-500/10" : "bg-muted/40", preview.isFetching && "opacity-70")} role="status" data-testid="target-preview">
      <p>
        Saving gives this discount to <strong>{plural(data.total)}</strong>
        {data.released ? `; ${plural(data.released)} holding it now will lose it` : ""}.
      </p>
      {data.moved ? (
        <p className="flex items-start gap-1.5 text-amber-800 dark:text-amber-300">
          <AlertTriangle className="mt-0.5 size-3.5 shrink-0" />
          <span>
            {plural(data.moved)} now {data.moved === 1 ? "holds" : "hold"} another discount and will move to this one:{" "}
            {data.movedFrom.map((from) => `${from.name} (${formatCount(from.count)})`).join(", ")}. A {noun} holds one discount at a time.
          </span>
        </p>
      ) : null}
    </div>
  );
}
