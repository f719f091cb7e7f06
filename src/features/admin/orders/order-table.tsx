"use client";

import { FileText, PackageCheck, Printer, Receipt, Tag, X } from "lucide-react";
import Link from "next/link";
import { useMemo, useState } from "react";
import { AdminInput } from "@/components/ui/admin-form-controls";
import { AdminTableCell } from "@/components/ui/admin-table";
import { Button } from "@/components/ui/button";
import { carriers, shippingMethods, shops } from "@/lib/enums";
import { shippingMethodLabels } from "@/lib/labels";
import { listPageFromAddress } from "@/lib/list-page";
import { cn } from "@/lib/utils";
import {
  EXACT_COUNT_LIMIT,
  orderListSlugs,
  orderSortColumns,
  statusOfSlug,
  type AdminOrderPage,
  type AdminOrderRow,
  type OrderListInput,
  type OrderListSlug,
  type OrderSortColumn,
} from "@/server/orders/admin-schemas";
import { carrierNames } from "@/server/orders/schemas";
import { formatEuro } from "@/lib/money";
import { formatCount, formatDate, formatDateTime } from "../kit/format";
import { ClearFiltersButton, FilterSelect, sortableColumn, type ListColumn } from "../kit/list-table";
import { SelectableList, SelectionToolbar, useRowSelection } from "../kit/selectable-list";
import { ListSearchBox } from "../kit/list-search-box";
import { useListAddress } from "../kit/use-list-address";
import { printUrl } from "../fulfilment/print-url";
import { ExportDialog } from "./export-dialog";
import { useShippingCountries } from "./manual-order-queries";
import { useOrderActions } from "./order-actions";
import { AdminOrderStatusBadge, orderStandingText, orderStatusLabels } from "./order-status";
import { useAdminOrders } from "./queries";

/** The filters' keys in the address, beside `search`, `sort`, `page` and `size`. */
const filterKeys = ["shop", "country", "method", "carrier", "from", "to"] as const;

/**
 * The table's state lives in the address (the list in the path, the rest in the query), so a filtered, sorted page
 * can be reloaded, bookmarked and shared.
 */
function readQuery(slug: OrderListSlug, search: URLSearchParams): OrderListInput {
  const [sortColumn, direction] = (search.get("sort") ?? "date.desc").split(".");
  const oneOf = <T extends string>(key: string, values: readonly T[]) => {
    const value = search.get(key);
    return values.includes(value as T) ? (value as T) : undefined;
  };
  const day = (key: string) => (/^\d{4}-\d{2}-\d{2}$/.test(search.get(key) ?? "") ? search.get(key)! : undefined);
  const country = search.get("country");
  const from = day("from");
  const to = day("to");
  return {
    status: statusOfSlug(slug) ?? undefined,
    search: search.get("search")?.trim() || undefined,
    shop: oneOf("shop", shops),
    countryCode: country && /^[A-Z]{2}$/.test(country) ? country : undefined,
    shippingMethod: oneOf("method", shippingMethods),
    carrier: oneOf("carrier", carriers),
    from,
    // A range the wrong way round keeps its first day only, rather than failing the whole page.
    to: from && to && to < from ? undefined : to,
    sort: (orderSortColumns as readonly string[]).includes(sortColumn ?? "") ? (sortColumn as OrderSortColumn) : "date",
    direction: direction === "asc" ? "asc" : "desc",
    ...listPageFromAddress(search),
  };
}

const listNames: Record<OrderListSlug, string> = {
  all: "All",
  ...(Object.fromEntries(orderListSlugs.slice(1).map((slug) => [slug, orderStatusLabels[statusOfSlug(slug)!]])) as Record<Exclude<OrderListSlug, "all">, string>),
};

/** "Seiko 5, 2 × Leather strap". */
function itemsSummary(row: AdminOrderRow): string {
  return row.items.map((item) => (item.quantity > 1 ? `${item.quantity} × ${item.name}` : item.name)).join(", ");
}

function countSummary(data: AdminOrderPage | undefined): string {
  if (!data) return "Loading…";
  const { totalItems, totalIsEstimate } = data;
  // Counting stops past the limit; the planner's estimate is all there is, and a poor one reads "more than".
  if (totalIsEstimate) return totalItems > EXACT_COUNT_LIMIT + 1 ? `About ${formatCount(totalItems)} orders` : `More than ${formatCount(EXACT_COUNT_LIMIT)} orders`;
  return `${formatCount(totalItems)} order${totalItems === 1 ? "" : "s"}`;
}

function Shipping({ row }: { row: AdminOrderRow }) {
  return (
    <div className="mt-0.5 max-w-40 min-w-0 text-[11px] text-muted-foreground">
      <p className="flex items-center gap-1 whitespace-nowrap">
        {shippingMethodLabels[row.shippingMethod]}
        {row.carrier ? <span>· {carrierNames[row.carrier]}</span> : null}
        {row.hasLabel ? <Tag className="size-3.5 text-emerald-700 dark:text-emerald-400" aria-label="Label created" /> : null}
      </p>
      {row.trackingNumber ? <p className="truncate font-mono">{row.trackingNumber}</p> : null}
    </div>
  );
}

export function OrderTable({ slug }: { slug: OrderListSlug }) {
  const { router, params, update, goToPage } = useListAddress();
  const query = useMemo(() => readQuery(slug, new URLSearchParams(params.toString())), [slug, params]);
  const orders = useAdminOrders(query);
  const countries = useShippingCountries();
  const [labelsQueued, setLabelsQueued] = useState<number[] | null>(null);
  const actions = useOrderActions({ onLabels: setLabelsQueued });

  const rows = orders.data?.rows ?? [];
  const selection = useRowSelection(rows, (row) => row.orderId, params.toString() + slug);
  const { chosen } = selection;

  const sortBy = (column: OrderSortColumn) => {
    const direction = query.sort === column && query.direction === "desc" ? "asc" : "desc";
    update({ sort: column === "date" && direction === "desc" ? undefined : `${column}.${direction}` }, { push: true });
  };
  const sortHeading = (column: OrderSortColumn, label: string, className?: string): ListColumn =>
    sortableColumn({ label, className, sorted: query.sort === column ? query.direction : null, onSort: () => sortBy(column) });

  const columns: ListColumn[] = [
    sortHeading("number", "Order"),
    sortHeading("date", "Placed"),
    { label: "Customer" },
    { label: "Items" },
    sortHeading("total", "Total", "text-right"),
    { label: "Status and shipping" },
  ];

  const activeFilters = filterKeys.filter((key) => params.has(key));
  const empty = orders.data && rows.length === 0 ? <>No orders{query.search ? ` match “${query.search}”` : ""}{activeFilters.length ? " with these filters" : ""}.</> : null;

  return (
    <div className="space-y-3">
      <nav aria-label="Order lists" className="-mx-1 flex gap-1 overflow-x-auto px-1 pb-1">
        {orderListSlugs.map((list) => {
          const next = new URLSearchParams(params.toString());
          next.delete("page");
          return (
            <Link
              key={list}
              href={`/admin/orders/status/${list}${next.size ? `?${next.toString()}` : ""}`}
              aria-current={list === slug ? "page" : undefined}
              className={cn(
                "shrink-0 rounded-md border px-3 py-1.5 text-xs font-medium whitespace-nowrap transition-colors",
                list === slug ? "border-primary bg-primary text-primary-foreground" : "bg-card text-muted-foreground hover:text-foreground",
              )}
            >
              {listNames[list]}
            </Link>
          );
        })}
      </nav>

      <div className="flex flex-wrap items-center gap-2">
        <ListSearchBox label="Search orders" placeholder="Order number, e-mail, name or product" currentSearch={query.search} update={update} className="sm:max-w-md" />
        <div className="ml-auto flex items-center gap-2">
          <ExportDialog from={query.from} to={query.to} />
        </div>
      </div>

      <div className="grid grid-cols-2 gap-2 sm:flex sm:flex-wrap sm:items-center">
        <FilterSelect label="Shop" param="shop" all="All shops" className="sm:w-32" options={shops.map((shop) => ({ value: shop, label: shop === "EBAY" ? "eBay" : "Web shop" }))} params={params} update={update} />
        <FilterSelect label="Country" param="country" all="All countries" className="sm:w-44" options={countries.data?.map((country) => ({ value: country.code, label: country.name }))} params={params} update={update} />
        <FilterSelect label="Shipping method" param="method" all="All methods" className="sm:w-36" options={shippingMethods.map((method) => ({ value: method, label: shippingMethodLabels[method] }))} params={params} update={update} />
        <FilterSelect label="Carrier" param="carrier" all="All carriers" className="sm:w-32" options={carriers.map((carrier) => ({ value: carrier, label: carrierNames[carrier] }))} params={params} update={update} />
        <label className="flex items-center gap-1.5 text-xs text-muted-foreground">
          From
          <AdminInput type="date" aria-label="Placed from" className="w-full sm:w-36" value={query.from ?? ""} max={query.to} onChange={(event) => update({ from: event.target.value })} />
        </label>
        <label className="flex items-center gap-1.5 text-xs text-muted-foreground">
          to
          <AdminInput type="date" aria-label="Placed until" className="w-full sm:w-36" value={query.to ?? ""} min={query.from} onChange={(event) => update({ to: event.target.value })} />
        </label>
        <ClearFiltersButton active={activeFilters} update={update} />
      </div>

      <SelectionToolbar label="Selected orders" selection={selection}>
        <Button size="sm" variant="outline" disabled={actions.pending} onClick={() => actions.transition(chosen, "PROCESSED")}>
          <PackageCheck /> Mark processed
        </Button>
        <Button size="sm" variant="outline" disabled={actions.pending} onClick={() => actions.createLabels(chosen)}>
          <Tag /> Print labels
        </Button>
        <Button size="sm" variant="outline" asChild>
          <a href={printUrl("packing-slips", chosen)} target="_blank" rel="noreferrer">
            <FileText /> Print packing slips
          </a>
        </Button>
        <Button size="sm" variant="outline" disabled={actions.pending} onClick={() => actions.printInvoices(chosen)}>
          <Receipt /> Print invoices
        </Button>
      </SelectionToolbar>

      {labelsQueued ? (
        <div role="status" className="flex flex-wrap items-center gap-2 rounded-lg border bg-card px-3 py-2 text-sm">
          <span>
            {labelsQueued.length === 1 ? "A label is" : `${labelsQueued.length} labels are`} being bought from the carrier; the print-out holds each once it is in.
          </span>
          <Button size="sm" asChild>
            <a href={printUrl("labels", labelsQueued)} target="_blank" rel="noreferrer">
              <Printer /> Open the labels
            </a>
          </Button>
          <Button size="sm" variant="ghost" className="ml-auto" aria-label="Dismiss" onClick={() => setLabelsQueued(null)}>
            <X />
          </Button>
        </div>
      ) : null}

      <SelectableList
        label="Orders"
        selectAllLabel="Select every order on this page"
        summary={<span data-testid="order-count">{countSummary(orders.data)}</span>}
        pages={{ page: query.page ?? 1, totalPages: orders.data?.totalPages ?? 1, pageSize: query.pageSize, onPage: goToPage, update }}
        rows={rows}
        keyOf={(row) => row.orderId}
        nameOf={(row) => row.orderNumber}
        selection={selection}
        columns={columns}
        loading={orders.isPending}
        dimmed={orders.isPlaceholderData}
        empty={empty}
        tableClassName="max-h-[calc(100dvh-17rem)]"
        onOpen={(row) => router.push(`/admin/orders/${row.orderNumber}`)}
        card={(row) => <OrderCard row={row} />}
        cells={(row) => (
          <>
            <AdminTableCell className="whitespace-nowrap">
              <Link href={`/admin/orders/${row.orderNumber}`} className="font-medium hover:text-primary hover:underline">
                {row.orderNumber}
              </Link>
              {row.shop === "EBAY" ? <p className="text-[11px] text-muted-foreground">eBay</p> : null}
            </AdminTableCell>
            <AdminTableCell className="whitespace-nowrap text-muted-foreground">{formatDateTime(row.createdAt)}</AdminTableCell>
            <AdminTableCell>
              <div className="max-w-44 min-w-0 2xl:max-w-56">
                <p className="truncate font-medium">{row.customer}</p>
                <p className="truncate text-[11px] text-muted-foreground">
                  {row.email} · {row.countryCode}
                </p>
              </div>
            </AdminTableCell>
            <AdminTableCell>
              <p className="max-w-48 truncate text-xs 2xl:max-w-80" title={itemsSummary(row)}>
                {itemsSummary(row)}
              </p>
            </AdminTableCell>
            <AdminTableCell className="text-right font-medium whitespace-nowrap">{formatEuro(row.total)}</AdminTableCell>
            <AdminTableCell className="py-1">
              <AdminOrderStatusBadge status={row.status} />
              <p className="text-xs whitespace-nowrap text-muted-foreground">{orderStandingText(row.standing)}</p>
              <Shipping row={row} />
            </AdminTableCell>
          </>
        )}
      />
    </div>
  );
}

/** An order's card on a phone, where the table does not fit: what matters of it without sideways scrolling. */
function OrderCard({ row }: { row: AdminOrderRow }) {
  return (
    <Link href={`/admin/orders/${row.orderNumber}`} className="min-w-0 flex-1 space-y-1">
      <div className="flex items-center justify-between gap-2">
        <span className="font-medium">{row.orderNumber}</span>
        <AdminOrderStatusBadge status={row.status} />
      </div>
      <div className="flex items-center justify-between gap-2 text-sm">
        <span className="truncate">
          {row.customer} <span className="text-muted-foreground">· {row.countryCode}</span>
        </span>
        <span className="font-medium whitespace-nowrap tabular-nums">{formatEuro(row.total)}</span>
      </div>
      <p className="truncate text-xs text-muted-foreground">{itemsSummary(row)}</p>
      <p className="text-xs text-muted-foreground">{orderStandingText(row.standing)}</p>
      <p className="flex items-center gap-1.5 text-[11px] text-muted-foreground">
        {formatDate(row.createdAt)} · {shippingMethodLabels[row.shippingMethod]}
        {row.carrier ? ` · ${carrierNames[row.carrier]}` : ""}
        {row.shop === "EBAY" ? " · eBay" : ""}
        {row.hasLabel ? <Tag className="size-3 text-emerald-700" aria-label="Label created" /> : null}
      </p>
    </Link>
  );
}
