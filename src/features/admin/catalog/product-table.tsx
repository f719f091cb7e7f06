"use client";

import { ImageOff } from "lucide-react";
import Link from "next/link";
import { useMemo, useState } from "react";
import { AdminBadge } from "@/components/ui/admin-badge";
import { AdminKbd } from "@/components/ui/admin-form-controls";
import { AdminTableCell } from "@/components/ui/admin-table";
import { itemTypes, listingStatuses } from "@/lib/enums";
import { listPageFromAddress } from "@/lib/list-page";
import {
  adminProductSortColumns,
  type AdminProductListInput,
  type AdminProductRow,
  type AdminProductSortColumn,
} from "@/server/catalog/admin-schemas";
import { LOW_STOCK } from "@/server/stock/schemas";
import { formatEuro } from "@/lib/money";
import { formatCount, formatDate, humanize } from "../kit/format";
import { ClearFiltersButton, FilterSelect, NewItemLink, sortableColumn, type ListColumn } from "../kit/list-table";
import { SelectableList, useRowSelection } from "../kit/selectable-list";
import { ListSearchBox } from "../kit/list-search-box";
import { useListAddress } from "../kit/use-list-address";
import { ProductBulkBar } from "./product-bulk-bar";
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
    published: oneOf("status", ["draft", "published"] as const),
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

/** Draft, or where a published product is on sale. */
function Channels({ row }: { row: AdminProductRow }) {
  if (row.publishedAt === null) return <AdminBadge tone="warning">Draft</AdminBadge>;
  return (
    <div className="flex gap-1">
      <AdminBadge tone={row.wsStatus === "ONLINE" ? "success" : "neutral"}>Shop {row.wsStatus === "ONLINE" ? "on" : "off"}</AdminBadge>
      <AdminBadge tone={row.ebayStatus === "ONLINE" ? "info" : "neutral"}>eBay {row.ebayStatus === "ONLINE" ? "on" : "off"}</AdminBadge>
    </div>
  );
}

const subtitle = (row: AdminProductRow) =>
  [row.manufacturer, row.category, row.itemType && row.itemType !== "UNKNOWN" ? humanize(row.itemType) : null].filter(Boolean).join(" · ");

/** A product on a phone, where the table does not fit. */
function ProductCard({ row }: { row: AdminProductRow }) {
  return (
    <div className="flex min-w-0 flex-1 gap-3">
      <Thumbnail src={row.image} />
      <div className="min-w-0 flex-1 space-y-1">
        <Link href={`/admin/products/edit?id=${row.id}`} className="block truncate text-sm font-medium hover:text-primary hover:underline">
          {row.name}
        </Link>
        <p className="truncate text-[11px] text-muted-foreground">
          #{row.id} · {subtitle(row)}
        </p>
        <div className="flex flex-wrap items-center gap-2 text-xs">
          <span className="font-medium">{formatEuro(row.price)}</span>
          <StockBadge stock={row.stock} />
          <Channels row={row} />
        </div>
      </div>
    </div>
  );
}

export function ProductTable() {
  const { router, params, update, goToPage } = useListAddress();
  const query = useMemo(() => readQuery(new URLSearchParams(params.toString())), [params]);

  const products = useAdminProducts(query);
  const choices = useProductFormChoices();
  const rows = products.data?.rows ?? [];
  const selection = useRowSelection(rows, (row) => row.id, params.toString());

  const sortBy = (column: AdminProductSortColumn) => {
    const direction = query.sort === column && query.direction === "desc" ? "asc" : "desc";
    update({ sort: `${column}.${direction}` }, { push: true });
  };
  const sortHeading = (column: AdminProductSortColumn, label: string, className?: string): ListColumn =>
    sortableColumn({ label, className, sorted: query.sort === column ? query.direction : null, onSort: () => sortBy(column) });
  const columns: ListColumn[] = [
    { label: "", className: "w-14 min-w-14 pr-0" },
    sortHeading("id", "ID", "w-20"),
    sortHeading("name", "Product"),
    sortHeading("price", "Price", "text-right"),
    sortHeading("stock", "Stock", "text-right"),
    { label: "Channels" },
    sortHeading("createdAt", "Listed"),
  ];

  const activeFilters = ["category", "manufacturer", "stock", "ws", "ebay", "type", "status"].filter((key) => params.has(key));
  const empty = products.data && rows.length === 0 ? <>No products match{query.search ? ` “${query.search}”` : ""}. Try fewer words or clear the filters.</> : null;

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-2">
        <ListSearchBox label="Search products" placeholder="Search name, brand, caliber or #id" currentSearch={query.search} update={update} className="sm:max-w-md" />
        <p className="hidden text-xs text-muted-foreground lg:block pointer-coarse:hidden">
          <AdminKbd>/</AdminKbd> search · <AdminKbd>N</AdminKbd> new · <AdminKbd>[</AdminKbd> <AdminKbd>]</AdminKbd> pages
        </p>
        <NewItemLink href="/admin/products/create">New product</NewItemLink>
      </div>
      <div className="grid grid-cols-2 gap-2 sm:flex sm:flex-wrap sm:items-center">
        <FilterSelect label="Category" param="category" all="All categories" className="sm:w-52" options={choices.data?.categories.map((choice) => ({ value: choice.id, label: choice.label }))} params={params} update={update} />
        <FilterSelect label="Manufacturer" param="manufacturer" all="All manufacturers" className="sm:w-44" options={choices.data?.manufacturers.map((choice) => ({ value: choice.id, label: choice.label }))} params={params} update={update} />
        <FilterSelect label="Item type" param="type" all="All item types" className="sm:w-40" options={itemTypes.filter((value) => value !== "UNKNOWN").map((value) => ({ value, label: humanize(value) }))} params={params} update={update} />
        <FilterSelect label="Stock" param="stock" all="Any stock" className="sm:w-32" options={stockChoices} params={params} update={update} />
        <FilterSelect label="Status" param="status" all="Any status" className="sm:w-36" options={[{ value: "draft", label: "Drafts" }, { value: "published", label: "Published" }]} params={params} update={update} />
        <FilterSelect label="Web shop" param="ws" all="Shop: all" className="sm:w-32" options={[{ value: "ONLINE", label: "Shop: on" }, { value: "OFFLINE", label: "Shop: off" }]} params={params} update={update} />
        <FilterSelect label="eBay" param="ebay" all="eBay: all" className="sm:w-32" options={[{ value: "ONLINE", label: "eBay: on" }, { value: "OFFLINE", label: "eBay: off" }]} params={params} update={update} />
        <ClearFiltersButton active={activeFilters} update={update} />
      </div>

      <ProductBulkBar selection={selection} choices={choices.data} />

      <SelectableList
        label="Products"
        selectAllLabel="Select every product on this page"
        summary={
          <span data-testid="product-count">
            {products.data ? `${formatCount(products.data.totalItems)} product${products.data.totalItems === 1 ? "" : "s"}` : "Loading…"}
          </span>
        }
        pages={{ page: query.page ?? 1, totalPages: products.data?.totalPages ?? 1, pageSize: query.pageSize, onPage: goToPage, update }}
        rows={rows}
        keyOf={(row) => row.id}
        nameOf={(row) => `#${row.id} ${row.name}`}
        selection={selection}
        columns={columns}
        loading={products.isPending}
        dimmed={products.isPlaceholderData}
        empty={empty}
        tableClassName="max-h-[calc(100dvh-13.5rem)]"
        onOpen={(row) => router.push(`/admin/products/edit?id=${row.id}`)}
        card={(row) => <ProductCard row={row} />}
        cells={(row) => (
          <>
            <AdminTableCell className="w-14 min-w-14 pr-0">
              <Thumbnail src={row.image} />
            </AdminTableCell>
            <AdminTableCell className="w-20 text-muted-foreground">#{row.id}</AdminTableCell>
            <AdminTableCell>
              <div className="min-w-0 max-w-[18rem] 2xl:max-w-[28rem]">
                <Link href={`/admin/products/edit?id=${row.id}`} className="block truncate font-medium hover:text-primary hover:underline">
                  {row.name}
                </Link>
                <p className="truncate text-[11px] text-muted-foreground">{subtitle(row)}</p>
              </div>
            </AdminTableCell>
            <AdminTableCell className="text-right font-medium">{formatEuro(row.price)}</AdminTableCell>
            <AdminTableCell className="text-right">
              <StockBadge stock={row.stock} />
            </AdminTableCell>
            <AdminTableCell>
              <Channels row={row} />
            </AdminTableCell>
            <AdminTableCell className="whitespace-nowrap text-muted-foreground">{formatDate(row.createdAt)}</AdminTableCell>
          </>
        )}
      />
    </div>
  );
}
