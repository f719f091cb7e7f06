"use client";

import { ArrowDown, ArrowUp, ArrowUpDown, ChevronLeft, ChevronRight, Plus, Trash2, X } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type ReactNode } from "react";
import { AdminTable, AdminTableBody, AdminTableCell, AdminTableHead, AdminTableHeader, AdminTableRow } from "@/components/ui/admin-table";
import { AdminCheckbox, AdminSelect } from "@/components/ui/admin-form-controls";
import { Button } from "@/components/ui/button";
import { LIST_PAGE_SIZES } from "@/lib/list-page";
import { cn } from "@/lib/utils";
import { formatCount } from "./format";
import type { ListAddressUpdate } from "./use-list-address";
import { useShortcut } from "./use-shortcut";

/** A column of a list: its heading (none for a column of icons or buttons) and the classes of its header cell. */
export type ListColumn = { label?: ReactNode; className?: string; sort?: "ascending" | "descending" };

/**
 * A sortable column's heading: a button that sorts by it, with an arrow for the way it is sorted now (`sorted`, none
 * when the list is sorted by another column).
 */
export function sortableColumn({ label, sorted, onSort, className }: { label: ReactNode; sorted?: "asc" | "desc" | null; onSort: () => void; className?: string }): ListColumn {
  return {
    className,
    sort: sorted ? (sorted === "asc" ? "ascending" : "descending") : undefined,
    label: (
      <button type="button" onClick={onSort} className={cn("inline-flex items-center gap-1 uppercase hover:text-foreground", sorted && "text-foreground")}>
        {label}
        {sorted === "asc" ? <ArrowUp className="size-3" /> : sorted === "desc" ? <ArrowDown className="size-3" /> : <ArrowUpDown className="size-3 opacity-40" />}
      </button>
    ),
  };
}

/**
 * The back office's lists (products, boxes, templates, the bucket, the logbook, a box's purchases...) are one kind of
 * table: a header row, placeholder rows while the first answer loads, one line saying so when there is nothing to
 * show, then the rows.
 */
export function ListTable({
  columns,
  loadingRows = 0,
  empty,
  emptyClassName = "h-28",
  bodyClassName,
  children,
}: {
  columns: ListColumn[];
  loadingRows?: number;
  /** What to say instead of rows, when there are none; null while there is nothing to say. */
  empty: ReactNode;
  emptyClassName?: string;
  bodyClassName?: string;
  children: ReactNode;
}) {
  return (
    <AdminTable>
      <AdminTableHeader>
        <tr>
          {columns.map((column, index) => (
            <AdminTableHead key={index} className={column.className} aria-sort={column.sort}>
              {column.label}
            </AdminTableHead>
          ))}
        </tr>
      </AdminTableHeader>
      <AdminTableBody className={bodyClassName}>
        {Array.from({ length: loadingRows }, (_, index) => (
          <AdminTableRow key={index}>
            <AdminTableCell colSpan={columns.length}>
              <div className="h-5 animate-pulse rounded bg-muted" />
            </AdminTableCell>
          </AdminTableRow>
        ))}
        {empty ? (
          <AdminTableRow>
            <AdminTableCell colSpan={columns.length} className={cn("text-center text-muted-foreground", emptyClassName)}>
              {empty}
            </AdminTableCell>
          </AdminTableRow>
        ) : null}
        {children}
      </AdminTableBody>
    </AdminTable>
  );
}

/**
 * A list standing on its own on a page: a bordered card around the table; `scroll` bounds the table's height so its
 * header stays in view while the rows scroll, and `footer` (counts, pages) sits under it.
 */
export function ListFrame({ scroll, footer, children }: { scroll?: string; footer?: ReactNode; children: ReactNode }) {
  return (
    <div className="overflow-hidden rounded-lg border bg-card shadow-xs">
      {scroll ? <div className={cn("overflow-auto", scroll)}>{children}</div> : children}
      {footer}
    </div>
  );
}

/**
 * A list's footer: what it holds on the left, the page and the buttons to the pages beside it on the right. With
 * `shortcuts`, `[` and `]` turn the pages too, and the buttons say so.
 */
export function ListPager({
  summary,
  page,
  totalPages,
  onPage,
  shortcuts = false,
  children,
}: {
  summary: ReactNode;
  page: number;
  totalPages: number;
  onPage: (page: number) => void;
  shortcuts?: boolean;
  /** More controls before the page number (rows per page). */
  children?: ReactNode;
}) {
  useShortcut("[", () => page > 1 && onPage(page - 1), shortcuts);
  useShortcut("]", () => page < totalPages && onPage(page + 1), shortcuts);
  return (
    <footer className="flex items-center justify-between gap-3 border-t bg-muted/40 px-3 py-2 text-xs text-muted-foreground">
      {summary}
      <div className="flex items-center gap-2">
        {children}
        <span className="tabular-nums">
          Page {formatCount(page)} of {formatCount(totalPages)}
        </span>
        <Button variant="outline" size="icon" className="size-8" aria-label={shortcuts ? "Previous page ([)" : "Previous page"} disabled={page <= 1} onClick={() => onPage(page - 1)}>
          <ChevronLeft />
        </Button>
        <Button variant="outline" size="icon" className="size-8" aria-label={shortcuts ? "Next page (])" : "Next page"} disabled={page >= totalPages} onClick={() => onPage(page + 1)}>
          <ChevronRight />
        </Button>
      </div>
    </footer>
  );
}

/** The pager's choice of rows per page; 50, the lists' default, leaves the address without a `size`. */
export function RowsPerPage({ value, update, className = "flex items-center gap-1.5" }: { value: number | undefined; update: ListAddressUpdate; className?: string }) {
  return (
    <label className={className}>
      Rows
      <AdminSelect aria-label="Rows per page" className="w-20" value={String(value)} onChange={(event) => update({ size: event.target.value === "50" ? undefined : event.target.value })}>
        {LIST_PAGE_SIZES.map((size) => (
          <option key={size} value={size}>
            {size}
          </option>
        ))}
      </AdminSelect>
    </label>
  );
}

/**
 * A filter of a list: a select bound to one key (`param`) of the address; its first choice, `all`, takes the filter off.
 */
export function FilterSelect({
  label,
  param,
  all,
  options,
  params,
  update,
  className,
}: {
  label: string;
  param: string;
  all: string;
  options: readonly { value: string | number; label: string }[] | undefined;
  params: Pick<URLSearchParams, "get">;
  update: ListAddressUpdate;
  className?: string;
}) {
  return (
    <AdminSelect aria-label={label} className={className} value={params.get(param) ?? ""} onChange={(event) => update({ [param]: event.target.value })}>
      <option value="">{all}</option>
      {options?.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </AdminSelect>
  );
}

/** Takes the filters in `active` (address keys) off the list; nothing shows while none is on. */
export function ClearFiltersButton({ active, update }: { active: readonly string[]; update: ListAddressUpdate }) {
  if (active.length === 0) return null;
  return (
    <Button variant="ghost" size="sm" className="h-9 text-muted-foreground" onClick={() => update(Object.fromEntries(active.map((key) => [key, undefined])))}>
      <X /> Clear filters
    </Button>
  );
}

/** A row's bin button: it asks `question` first, and only a yes calls `onConfirm`. */
export function DeleteRowButton({ label, question, onConfirm, disabled, className }: { label: string; question: string; onConfirm: () => void; disabled?: boolean; className?: string }) {
  return (
    <Button
      type="button"
      size="icon"
      variant="ghost"
      className={cn("size-7 text-destructive hover:text-destructive", className)}
      aria-label={label}
      disabled={disabled}
      onClick={() => window.confirm(question) && onConfirm()}
    >
      <Trash2 />
    </Button>
  );
}

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

/** A list's button to the form for a new one (a product, a discount); N opens the form too. */
export function NewItemLink({ href, children }: { href: string; children: ReactNode }) {
  const router = useRouter();
  useShortcut("n", () => router.push(href));
  return (
    <Button asChild size="sm" className="ml-auto h-9">
      <Link href={href}>
        <Plus /> {children}
      </Link>
    </Button>
  );
}
