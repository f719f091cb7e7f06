"use client";

import { flexRender, getCoreRowModel, useReactTable, type ColumnDef, type SortingState } from "@tanstack/react-table";
import { ImageOff } from "lucide-react";
import Link from "next/link";
import { useMemo, useState } from "react";
import { AdminBadge } from "@/components/ui/admin-badge";
import { AdminKbd } from "@/components/ui/admin-form-controls";
import { AdminTableCell, AdminTableRow } from "@/components/ui/admin-table";
import { itemTypes, listingStatuses } from "@/lib/enums";
import { listPageFromAddress } from "@/lib/list-page";
import { cn } from "@/lib/utils";
import {
  adminProductSortColumns,
  type AdminProductListInput,
  type AdminProductRow,
  type AdminProductSortColumn,
} from "@/server/catalog/admin-schemas";
import { LOW_STOCK } from "@/server/stock/schemas";
import { formatEuro } from "@/lib/money";
import { formatCount, formatDate, humanize } from "../kit/format";
import { ClearFiltersButton, FilterSelect, ListFrame, ListPager, ListTable, NewItemLink, RowsPerPage, sortableColumn } from "../kit/list-table";
import { ListSearchBox } from "../kit/list-search-box";
import { useListAddress } from "../kit/use-list-address";
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
  return {
    search: search.get("search") || undefined,
    sort: (adminProductSortColumns as readonly string[]).includes(sortColumn ?? "") ? (sortColumn as AdminProductSortColumn) : "createdAt",
    direction: direction === "asc" ? "asc" : "desc",
    ...listPageFromAddress(search),
    categoryId: number("category"),
    manufacturerId: number("manufacturer"),
    wsStatus: oneOf("ws", listingStatuses),
    ebayStatus: oneOf("ebay", listingStatuses),
    itemType: oneOf("type", itemTypes),
    stock: oneOf("stock", ["in", "out", "low"] as const),
  };
}

const stockChoices = [
  { value: "in", label: "In stock" },
  { value: "low", label: `Low (≤ ${LOW_STOCK})` },
  { value: "out", label: "Sold out" },
];

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
  const { router, params, update, goToPage } = useListAddress();
  const query = useMemo(() => readQuery(new URLSearchParams(params.toString())), [params]);

  const products = useAdminProducts(query);
  const choices = useProductFormChoices();

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
        <ListSearchBox label="Search products" placeholder="Search name, brand, caliber or #id" currentSearch={query.search} update={update} className="max-w-md" />
        <p className="text-xs text-muted-foreground max-md:hidden pointer-coarse:hidden">
          <AdminKbd>/</AdminKbd> search · <AdminKbd>N</AdminKbd> new · <AdminKbd>[</AdminKbd> <AdminKbd>]</AdminKbd> pages
        </p>
        <NewItemLink href="/admin/products/create">New product</NewItemLink>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <FilterSelect label="Category" param="category" all="All categories" className="w-52" options={choices.data?.categories.map((choice) => ({ value: choice.id, label: choice.label }))} params={params} update={update} />
        <FilterSelect label="Manufacturer" param="manufacturer" all="All manufacturers" className="w-44" options={choices.data?.manufacturers.map((choice) => ({ value: choice.id, label: choice.label }))} params={params} update={update} />
        <FilterSelect label="Item type" param="type" all="All item types" className="w-40" options={itemTypes.filter((value) => value !== "UNKNOWN").map((value) => ({ value, label: humanize(value) }))} params={params} update={update} />
        <FilterSelect label="Stock" param="stock" all="Any stock" className="w-32" options={stockChoices} params={params} update={update} />
        <FilterSelect label="Web shop" param="ws" all="Shop: all" className="w-32" options={[{ value: "ONLINE", label: "Shop: on" }, { value: "OFFLINE", label: "Shop: off" }]} params={params} update={update} />
        <FilterSelect label="eBay" param="ebay" all="eBay: all" className="w-32" options={[{ value: "ONLINE", label: "eBay: on" }, { value: "OFFLINE", label: "eBay: off" }]} params={params} update={update} />
        <ClearFiltersButton active={activeFilters} update={update} />
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
            onPage={goToPage}
            shortcuts
          >
            <RowsPerPage value={query.pageSize} update={update} />
          </ListPager>
        }
      >
        <ListTable
          columns={table.getLeafHeaders().map((header) => {
            const sortable = (adminProductSortColumns as readonly string[]).includes(header.column.id);
            const heading = flexRender(header.column.columnDef.header, header.getContext());
            const className = (header.column.columnDef.meta as { className?: string } | undefined)?.className;
            if (!sortable) return { className, label: heading };
            return sortableColumn({ label: heading, className, sorted: query.sort === header.column.id ? query.direction : null, onSort: () => sortBy(header.column.id) });
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
