"use client";

import { X } from "lucide-react";
import { useState, type ReactNode } from "react";
import { AdminTableCell, AdminTableRow } from "@/components/ui/admin-table";
import { AdminCheckbox } from "@/components/ui/admin-form-controls";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";
import { formatCount } from "./format";
import { ListFrame, ListPager, ListTable, RowsPerPage, type ListColumn } from "./list-table";
import type { ListAddressUpdate } from "./use-list-address";

// Lists whose rows staff pick for a bulk action (orders, offers): the selection, the bar of bulk actions over the list,
// and the list itself as a table or, on a phone, as cards.

/**
 * The rows picked in a list for a bulk action, by key. A selection belongs to the rows on screen: when `scope` changes
 * (another page, list or filter) it starts afresh. `chosen` holds the picked rows' keys in the list's order.
 */
export function useRowSelection<Row>(rows: readonly Row[], keyOf: (row: Row) => number, scope: string) {
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [selectionFor, setSelectionFor] = useState(scope);
  if (selectionFor !== scope) {
    setSelectionFor(scope);
    setSelected(new Set());
  }
  const chosen = rows.filter((row) => selected.has(keyOf(row))).map((row) => keyOf(row));
  return {
    selected,
    chosen,
    allChosen: rows.length > 0 && chosen.length === rows.length,
    toggle: (key: number, on: boolean) =>
      setSelected((current) => {
        const next = new Set(current);
        if (on) next.add(key);
        else next.delete(key);
        return next;
      }),
    toggleAll: (on: boolean) => setSelected(on ? new Set(rows.map((row) => keyOf(row))) : new Set()),
    /** Picks these rows and no others. */
    pick: (keys: Iterable<number>) => setSelected(new Set(keys)),
    clear: () => setSelected(new Set()),
  };
}

export type RowSelection = ReturnType<typeof useRowSelection>;

/** The bar over a list while rows are picked: how many, the bulk actions (`children`), and a button to clear the pick. */
export function SelectionToolbar({ label, selection, children }: { label: string; selection: RowSelection; children: ReactNode }) {
  if (selection.chosen.length === 0) return null;
  return (
    <div role="toolbar" aria-label={label} className="flex flex-wrap items-center gap-2 rounded-lg border border-primary/30 bg-primary/5 px-3 py-2">
      <span className="text-sm font-medium">{formatCount(selection.chosen.length)} selected</span>
      {children}
      <Button size="sm" variant="ghost" className="ml-auto text-muted-foreground" onClick={selection.clear}>
        <X /> Clear
      </Button>
    </div>
  );
}

/** Where a paged list stands (its page, of how many, and the rows a page holds) and how it goes to another page or size. */
type ListPages = { page: number; totalPages: number; pageSize: number | undefined; onPage: (page: number) => void; update: ListAddressUpdate };

/**
 * A page of a list whose rows staff pick for a bulk action, in its frame with the pager under it: a table on wider
 * screens and, on a phone, where a table does not fit, one card per row (`md:hidden`), with the same selection in both.
 * The table's first column holds the selection boxes (its heading picks the whole page or none) and a double click
 * opens a row; `cells` draws a row's other cells, `card` a card's content beside its box. Placeholders show while the
 * first answer loads, and `empty` when there is nothing to show. `[` and `]` turn the pages too.
 */
export function SelectableList<Row>({
  label,
  selectAllLabel,
  summary,
  pages,
  rows,
  keyOf,
  nameOf,
  selection,
  columns,
  loading,
  dimmed,
  empty,
  tableClassName,
  onOpen,
  cells,
  card,
}: {
  /** What the rows are, for the cards' list. */
  label: string;
  selectAllLabel: string;
  /** What the list holds, in the footer beside the pager. */
  summary: ReactNode;
  pages: ListPages;
  rows: readonly Row[];
  keyOf: (row: Row) => number;
  /** What a row's selection box says it selects. */
  nameOf: (row: Row) => string;
  selection: RowSelection;
  /** The table's columns after the selection boxes. */
  columns: ListColumn[];
  loading: boolean;
  /** The rows on screen are an earlier answer while the next loads. */
  dimmed: boolean;
  empty: ReactNode;
  /** Bounds the table's height, so its header stays in view while the rows scroll. */
  tableClassName: string;
  onOpen: (row: Row) => void;
  cells: (row: Row) => ReactNode;
  card: (row: Row) => ReactNode;
}) {
  const selectAll: ListColumn = {
    label: <AdminCheckbox aria-label={selectAllLabel} checked={selection.allChosen ? true : selection.chosen.length > 0 ? "indeterminate" : false} onCheckedChange={(on) => selection.toggleAll(on === true)} />,
    className: "w-10 pr-0",
  };
  const box = (row: Row, className?: string) => (
    <AdminCheckbox className={className} aria-label={`Select ${nameOf(row)}`} checked={selection.selected.has(keyOf(row))} onCheckedChange={(on) => selection.toggle(keyOf(row), on === true)} />
  );
  return (
    <ListFrame
      footer={
        <ListPager summary={summary} page={pages.page} totalPages={pages.totalPages} onPage={pages.onPage} shortcuts>
          <RowsPerPage value={pages.pageSize} update={pages.update} className="hidden items-center gap-1.5 sm:flex" />
        </ListPager>
      }
    >
      <div className={cn("hidden overflow-auto md:block", tableClassName)}>
        <ListTable columns={[selectAll, ...columns]} loadingRows={loading ? 12 : 0} bodyClassName={cn(dimmed && "opacity-60 transition-opacity")} empty={empty} emptyClassName="h-40">
          {rows.map((row) => (
            <AdminTableRow key={keyOf(row)} data-state={selection.selected.has(keyOf(row)) ? "selected" : undefined} onDoubleClick={() => onOpen(row)}>
              <AdminTableCell className="pr-0">{box(row)}</AdminTableCell>
              {cells(row)}
            </AdminTableRow>
          ))}
        </ListTable>
      </div>
      <ul className={cn("divide-y md:hidden", dimmed && "opacity-60 transition-opacity")} aria-label={label}>
        {loading ? Array.from({ length: 6 }, (_, index) => <li key={index} className="m-3 h-16 animate-pulse rounded bg-muted" />) : null}
        {empty ? <li className="px-3 py-10 text-center text-sm text-muted-foreground">{empty}</li> : null}
        {rows.map((row) => (
          <li key={keyOf(row)} className={cn("flex gap-3 px-3 py-3", selection.selected.has(keyOf(row)) && "bg-accent/60")}>
            {box(row, "mt-1")}
            {card(row)}
          </li>
        ))}
      </ul>
    </ListFrame>
  );
}
