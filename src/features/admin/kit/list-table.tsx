"use client";

import { ArrowDown, ArrowUp, ArrowUpDown, ChevronLeft, ChevronRight, Plus, Trash2, X } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import type { ReactNode } from "react";
import { useConfirm } from "@/components/confirm-dialog";
import { AdminTable, AdminTableBody, AdminTableCell, AdminTableHead, AdminTableHeader, AdminTableRow } from "@/components/ui/admin-table";
import { AdminSelect } from "@/components/ui/admin-form-controls";
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
 * A table that, on a phone, shows each row as a card instead of columns that run off the screen: the cells one under
 * another, each after its column's name, which the cell carries as `data-label` (a cell without one, the row's name,
 * heads the card on a line of its own; one with `data-corner`, a row's button, sits in the card's top right corner).
 * Nothing is left out, and nothing scrolls sideways. From the md breakpoint on it is the usual table.
 */
export const stackedTable = cn(
  "max-md:block max-md:[&_thead]:hidden max-md:[&_tbody]:block",
  "max-md:[&_tr]:relative max-md:[&_tr]:flex max-md:[&_tr]:flex-col max-md:[&_tr]:border-b max-md:[&_tr]:px-4 max-md:[&_tr]:py-2.5 max-md:[&_tbody_tr:last-child]:border-b-0",
  "max-md:[&_td]:flex max-md:[&_td]:h-auto max-md:[&_td]:w-auto max-md:[&_td]:max-w-none max-md:[&_td]:flex-wrap max-md:[&_td]:items-baseline max-md:[&_td]:justify-end max-md:[&_td]:gap-x-1.5 max-md:[&_td]:border-0 max-md:[&_td]:p-0 max-md:[&_td]:py-0.5 max-md:[&_td]:text-right max-md:[&_td]:whitespace-normal",
  "max-md:[&_td:not([data-label])]:block max-md:[&_td:not([data-label])]:text-left",
  "max-md:[&_td[data-label]]:before:mr-auto max-md:[&_td[data-label]]:before:pr-3 max-md:[&_td[data-label]]:before:font-sans max-md:[&_td[data-label]]:before:text-left max-md:[&_td[data-label]]:before:text-[11px] max-md:[&_td[data-label]]:before:font-semibold max-md:[&_td[data-label]]:before:tracking-wide max-md:[&_td[data-label]]:before:text-muted-foreground max-md:[&_td[data-label]]:before:uppercase max-md:[&_td[data-label]]:before:content-[attr(data-label)]",
  "max-md:[&_td[data-corner]]:absolute max-md:[&_td[data-corner]]:top-1.5 max-md:[&_td[data-corner]]:right-2",
  // A card with a corner button keeps the button's room beside and under its heading.
  "max-md:[&_tr:has(>td[data-corner])>td:not([data-label],[data-corner])]:min-h-8 max-md:[&_tr:has(>td[data-corner])>td:not([data-label],[data-corner])]:pr-10",
);

/**
 * The back office's lists (products, boxes, templates, the bucket, the logbook, a box's purchases...) are one kind of
 * table: a header row, placeholder rows while the first answer loads, one line saying so when there is nothing to
 * show, then the rows. `stacked`: cards on a phone (see stackedTable), for a list whose every column matters there.
 */
export function ListTable({
  columns,
  loadingRows = 0,
  empty,
  emptyClassName = "h-28",
  bodyClassName,
  stacked = false,
  children,
}: {
  columns: ListColumn[];
  loadingRows?: number;
  /** What to say instead of rows, when there are none; null while there is nothing to say. */
  empty: ReactNode;
  emptyClassName?: string;
  bodyClassName?: string;
  stacked?: boolean;
  children: ReactNode;
}) {
  return (
    <AdminTable className={stacked ? stackedTable : undefined}>
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
  const [confirm, confirmDialog] = useConfirm();
  return (
    <>
      <Button
        type="button"
        size="icon"
        variant="ghost"
        className={cn("size-7 text-destructive hover:text-destructive", className)}
        aria-label={label}
        disabled={disabled}
        onClick={async () => {
          if (await confirm({ title: question, confirmLabel: label.split(" ")[0] ?? "Delete", destructive: true })) onConfirm();
        }}
      >
        <Trash2 />
      </Button>
      {confirmDialog}
    </>
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
