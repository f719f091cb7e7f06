"use client";

import { flexRender, getCoreRowModel, useReactTable, type ColumnDef, type SortingState } from "@tanstack/react-table";
import { ArrowDown, ArrowUp, ArrowUpDown, ImageOff, Plus, Search, X } from "lucide-react";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useMemo, useRef, useState } from "react";
import { AdminBadge } from "@/components/ui/admin-badge";
import { AdminInput, AdminKbd, AdminSelect } from "@/components/ui/admin-form-controls";
import { AdminTableCell, AdminTableRow } from "@/components/ui/admin-table";
import { Button } from "@/components/ui/button";
import { itemTypes, listingStatuses } from "@/lib/enums";
import { cn } from "@/lib/utils";
import {
  ADMIN_PRODUCT_PAGE_SIZES,
  adminProductSortColumns,
  type AdminProductListInput,
  type AdminProductRow,
  type AdminProductSortColumn,
} from "@/server/catalog/admin-schemas";
import { LOW_STOCK } from "@/server/stock/schemas";
import { formatCount, formatDate, formatEuro, humanize } from "../format";
import { ListFrame, ListPager, ListTable } from "../list-table";
import { useShortcut } from "../use-shortcut";
import { useAdminProducts, useProductFormChoices } from "./queries";

/** The table's state lives in the address, so a filtered, sorted page can be bookmarked, shared and gone back to. */
function readQuery(search: URLSearchParams): AdminProductListInput {
  const [sortColumn, direction] = (search.get("sort") ?? "createdAt.desc").split(".");
  const number = (key: string) => {
    const value = Number(search.get(key));
    return Number.isInteger(value) && value > 0 ? value : undefined;
  };
  const oneOf = <T extends string>(key: string, values: readonly T[]) => {
    const value = search.get(key);
    return values.includes(value as T) ? (value as T) : undefined;
  };
  const size = number("size");
  return {
    search: search.get("search") || undefined,
    sort: (adminProductSortColumns as readonly string[]).includes(sortColumn ?? "") ? (sortColumn as AdminProductSortColumn) : "createdAt",
    direction: direction === "asc" ? "asc" : "desc",
    page: number("page") ?? 1,
    pageSize: (ADMIN_PRODUCT_PAGE_SIZES as readonly number[]).includes(size ?? 0) ? (size as 25 | 50 | 100) : 50,
    categoryId: number("category"),
    manufacturerId: number("manufacturer"),
    wsStatus: oneOf("ws", listingStatuses),
    ebayStatus: oneOf("ebay", listingStatuses),
    itemType: oneOf("type", itemTypes),
    stock: oneOf("stock", ["in", "out", "low"] as const),
  };
}

function StockBadge({ stock }: { stock: number }) {
  if (stock === 0) return <AdminBadge tone="danger">Sold out</AdminBadge>;
  if (stock <= LOW_STOCK) return <AdminBadge tone="warning">{stock}</AdminBadge>;
  return <span className="font-medium tabular-nums">{formatCount(stock)}</span>;
}

function Thumbnail({ src }: { src: string }) {
  const [failed, setFailed] = useState(false);
  if (failed) {
    return (
      <span className="flex size-9 items-center justify-center rounded bg-muted text-muted-foreground">
        <ImageOff className="size-4" />
      </span>
    );
  }
  // eslint-disable-next-line @next/next/no-img-element -- 50 small thumbnails; the optimiser would only add latency
  return <img src={src} alt="" loading="lazy" onError={() => setFailed(true)} className="size-9 max-w-none shrink-0 rounded bg-muted object-cover ring-1 ring-border" />;
}

const columns: ColumnDef<AdminProductRow>[] = [
  { id: "image", header: "", enableSorting: false, cell: ({ row }) => <Thumbnail src={row.original.image} />, meta: { className: "w-14 min-w-14 pr-0" } },
  { id: "id", header: "ID", cell: ({ row }) => <span className="text-muted-foreground">#{row.original.id}</span>, meta: { className: "w-20" } },
  {
    id: "name",
    header: "Product",
    cell: ({ row }) => (
      <div className="min-w-0 max-w-[28rem]">
        <Link href={`/admin/products/edit?id=${row.original.id}`} className="block truncate font-medium hover:text-primary hover:underline">
          {row.original.name}
        </Link>
        <p className="truncate text-[11px] text-muted-foreground">
          {[row.original.manufacturer, row.original.category, row.original.itemType && row.original.itemType !== "UNKNOWN" ? humanize(row.original.itemType) : null]
            .filter(Boolean)
            .join(" · ")}
        </p>
      </div>
    ),
  },
  { id: "price", header: "Price", cell: ({ row }) => <span className="font-medium">{formatEuro(row.original.price)}</span>, meta: { className: "text-right" } },
  { id: "stock", header: "Stock", cell: ({ row }) => <StockBadge stock={row.original.stock} />, meta: { className: "text-right" } },
  {
    id: "channels",
    header: "Channels",
    enableSorting: false,
    cell: ({ row }) => (
      <div className="flex gap-1">
        <AdminBadge tone={row.original.wsStatus === "ONLINE" ? "success" : "neutral"}>Shop {row.original.wsStatus === "ONLINE" ? "on" : "off"}</AdminBadge>
        <AdminBadge tone={row.original.ebayStatus === "ONLINE" ? "info" : "neutral"}>eBay {row.original.ebayStatus === "ONLINE" ? "on" : "off"}</AdminBadge>
      </div>
    ),
  },
  { id: "createdAt", header: "Listed", cell: ({ row }) => <span className="whitespace-nowrap text-muted-foreground">{formatDate(row.original.createdAt)}</span> },
];

export function ProductTable() {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const query = useMemo(() => readQuery(new URLSearchParams(params.toString())), [params]);
  const searchBox = useRef<HTMLInputElement>(null);
  const [searchText, setSearchText] = useState(query.search ?? "");

  const products = useAdminProducts(query);
  const choices = useProductFormChoices();

  /** Writes filters to the address; a new sort order is a new history entry (SPEC's two-step back), the rest replace. */
  const update = (changes: Record<string, string | undefined>, options: { push?: boolean; keepPage?: boolean } = {}) => {
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

  // Typing searches after a short pause, so each keystroke does not cost a query.
  const currentSearch = query.search ?? "";
  useEffect(() => {
    if (searchText === currentSearch) return;
    const timer = setTimeout(() => update({ search: searchText.trim() || undefined }), 300);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- update reads the latest address itself
  }, [searchText]);

  const sorting: SortingState = [{ id: query.sort ?? "createdAt", desc: query.direction !== "asc" }];
  // The table only lays out the rows the server sent; nothing downstream is memoised on its functions.
  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Table's documented use
  const table = useReactTable({
    data: products.data?.rows ?? [],
    columns,
    getCoreRowModel: getCoreRowModel(),
    manualSorting: true,
    manualPagination: true,
    state: { sorting },
    pageCount: products.data?.totalPages ?? -1,
  });

  const page = query.page ?? 1;
  const totalPages = products.data?.totalPages ?? 1;
  const goTo = (target: number) => update({ page: target > 1 ? String(target) : undefined }, { keepPage: true });

  useShortcut("/", () => searchBox.current?.focus());
  useShortcut("n", () => router.push("/admin/products/create"));

  const sortBy = (column: string) => {
    const sortable = (adminProductSortColumns as readonly string[]).includes(column);
    if (!sortable) return;
    const direction = query.sort === column && query.direction === "desc" ? "asc" : "desc";
    update({ sort: `${column}.${direction}` }, { push: true });
  };

  const activeFilters = ["category", "manufacturer", "stock", "ws", "ebay", "type"].filter((key) => params.has(key));

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-2">
        <div className="relative w-full max-w-md">
          <Search className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground" />
          <AdminInput
            ref={searchBox}
            type="search"
            aria-label="Search products"
            placeholder="Search name, brand, caliber or #id"
            value={searchText}
            onChange={(event) => setSearchText(event.target.value)}
            className="pr-10 pl-8"
          />
          <AdminKbd className="absolute top-1/2 right-2 -translate-y-1/2">/</AdminKbd>
        </div>
        <p className="text-xs text-muted-foreground">
          <AdminKbd>/</AdminKbd> search · <AdminKbd>N</AdminKbd> new · <AdminKbd>[</AdminKbd> <AdminKbd>]</AdminKbd> pages
        </p>
        <Button asChild size="sm" className="ml-auto h-9">
          <Link href="/admin/products/create">
            <Plus /> New product
          </Link>
        </Button>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <AdminSelect aria-label="Category" className="w-52" value={params.get("category") ?? ""} onChange={(event) => update({ category: event.target.value })}>
          <option value="">All categories</option>
          {choices.data?.categories.map((choice) => (
            <option key={choice.id} value={choice.id}>
              {choice.label}
            </option>
          ))}
        </AdminSelect>
        <AdminSelect aria-label="Manufacturer" className="w-44" value={params.get("manufacturer") ?? ""} onChange={(event) => update({ manufacturer: event.target.value })}>
          <option value="">All manufacturers</option>
          {choices.data?.manufacturers.map((choice) => (
            <option key={choice.id} value={choice.id}>
              {choice.label}
            </option>
          ))}
        </AdminSelect>
        <AdminSelect aria-label="Item type" className="w-40" value={params.get("type") ?? ""} onChange={(event) => update({ type: event.target.value })}>
          <option value="">All item types</option>
          {itemTypes
            .filter((value) => value !== "UNKNOWN")
            .map((value) => (
              <option key={value} value={value}>
                {humanize(value)}
              </option>
            ))}
        </AdminSelect>
        <AdminSelect aria-label="Stock" className="w-32" value={params.get("stock") ?? ""} onChange={(event) => update({ stock: event.target.value })}>
          <option value="">Any stock</option>
          <option value="in">In stock</option>
          <option value="low">Low (≤ {LOW_STOCK})</option>
          <option value="out">Sold out</option>
        </AdminSelect>
        <AdminSelect aria-label="Web shop" className="w-32" value={params.get("ws") ?? ""} onChange={(event) => update({ ws: event.target.value })}>
          <option value="">Shop: all</option>
          <option value="ONLINE">Shop: on</option>
          <option value="OFFLINE">Shop: off</option>
        </AdminSelect>
        <AdminSelect aria-label="eBay" className="w-32" value={params.get("ebay") ?? ""} onChange={(event) => update({ ebay: event.target.value })}>
          <option value="">eBay: all</option>
          <option value="ONLINE">eBay: on</option>
          <option value="OFFLINE">eBay: off</option>
        </AdminSelect>
        {activeFilters.length ? (
          <Button variant="ghost" size="sm" className="h-9 text-muted-foreground" onClick={() => update(Object.fromEntries(activeFilters.map((key) => [key, undefined])))}>
            <X /> Clear filters
          </Button>
        ) : null}
      </div>

      <ListFrame
        scroll="max-h-[calc(100dvh-13.5rem)]"
        footer={
          <ListPager
            summary={
              <span data-testid="product-count">
                {products.data ? `${formatCount(products.data.totalItems)} product${products.data.totalItems === 1 ? "" : "s"}` : "Loading…"}
              </span>
            }
            page={page}
            totalPages={totalPages}
            onPage={goTo}
            shortcuts
          >
            <label className="flex items-center gap-1.5">
              Rows
              <AdminSelect aria-label="Rows per page" className="w-20" value={String(query.pageSize)} onChange={(event) => update({ size: event.target.value === "50" ? undefined : event.target.value })}>
                {ADMIN_PRODUCT_PAGE_SIZES.map((size) => (
                  <option key={size} value={size}>
                    {size}
                  </option>
                ))}
              </AdminSelect>
            </label>
          </ListPager>
        }
      >
        <ListTable
          columns={table.getLeafHeaders().map((header) => {
            const sortable = (adminProductSortColumns as readonly string[]).includes(header.column.id);
            const sorted = query.sort === header.column.id ? query.direction : null;
            const heading = flexRender(header.column.columnDef.header, header.getContext());
            return {
              className: (header.column.columnDef.meta as { className?: string } | undefined)?.className,
              sort: sorted ? (sorted === "asc" ? "ascending" : "descending") : undefined,
              label: sortable ? (
                <button type="button" onClick={() => sortBy(header.column.id)} className={cn("inline-flex items-center gap-1 uppercase hover:text-foreground", sorted && "text-foreground")}>
                  {heading}
                  {sorted === "asc" ? <ArrowUp className="size-3" /> : sorted === "desc" ? <ArrowDown className="size-3" /> : <ArrowUpDown className="size-3 opacity-40" />}
                </button>
              ) : (
                heading
              ),
            };
          })}
          loadingRows={products.isPending ? 12 : 0}
          bodyClassName={cn(products.isPlaceholderData && "opacity-60 transition-opacity")}
          empty={products.data && products.data.rows.length === 0 ? <>No products match{query.search ? ` “${query.search}”` : ""}. Try fewer words or clear the filters.</> : null}
          emptyClassName="h-40"
        >
          {table.getRowModel().rows.map((row) => (
            <AdminTableRow key={row.id} onDoubleClick={() => router.push(`/admin/products/edit?id=${row.original.id}`)}>
              {row.getVisibleCells().map((cell) => (
                <AdminTableCell key={cell.id} className={(cell.column.columnDef.meta as { className?: string } | undefined)?.className}>
                  {flexRender(cell.column.columnDef.cell, cell.getContext())}
                </AdminTableCell>
              ))}
            </AdminTableRow>
          ))}
        </ListTable>
      </ListFrame>
    </div>
  );
}
