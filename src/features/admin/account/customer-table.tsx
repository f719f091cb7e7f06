"use client";

import Link from "next/link";
import { useMemo } from "react";
import { AdminTableCell, AdminTableRow } from "@/components/ui/admin-table";
import { listPageFromAddress } from "@/lib/list-page";
import { formatEuro } from "@/lib/money";
import { cn } from "@/lib/utils";
import {
  customerRoleFilters,
  customerSortColumns,
  type CustomerListInput,
  type CustomerPage,
  type CustomerRow,
  type CustomerSortColumn,
} from "@/server/account/customer-admin-schemas";
import { formatCount, formatDate } from "../kit/format";
import { ListSearchBox } from "../kit/list-search-box";
import { ClearFiltersButton, FilterSelect, ListFrame, ListPager, ListTable, RowsPerPage, sortableColumn, type ListColumn } from "../kit/list-table";
import { useListAddress } from "../kit/use-list-address";
import { CustomerBadges, customerPath } from "./customer-badges";
import { useCustomers } from "./queries";

/** The table's state lives in the address, as the order table's does, so a sorted, searched page can be shared. */
function readQuery(search: URLSearchParams): CustomerListInput {
  const [sortColumn, direction] = (search.get("sort") ?? "lastOrder.desc").split(".");
  const role = search.get("role");
  return {
    search: search.get("search")?.trim() || undefined,
    role: (customerRoleFilters as readonly string[]).includes(role ?? "") ? (role as CustomerListInput["role"]) : undefined,
    sort: (customerSortColumns as readonly string[]).includes(sortColumn ?? "") ? (sortColumn as CustomerSortColumn) : "lastOrder",
    direction: direction === "asc" ? "asc" : "desc",
    ...listPageFromAddress(search),
  };
}

function countSummary(data: CustomerPage | undefined): string {
  if (!data) return "Loading…";
  return `${formatCount(data.totalItems)} customer${data.totalItems === 1 ? "" : "s"}`;
}

/** Spend is what they paid less what went back; the refunds show beside it where there were any. */
function Spend({ row }: { row: CustomerRow }) {
  return (
    <>
      <span className="font-medium">{formatEuro(row.spend)}</span>
      {row.refunded.isZero() ? null : <span className="block text-[11px] text-muted-foreground">{formatEuro(row.refunded)} refunded</span>}
    </>
  );
}

export function CustomerTable() {
  const { router, params, update, goToPage } = useListAddress();
  const query = useMemo(() => readQuery(new URLSearchParams(params.toString())), [params]);
  const customers = useCustomers(query);
  const rows = customers.data?.rows ?? [];

  const sortBy = (column: CustomerSortColumn) => {
    const direction = query.sort === column && query.direction === "desc" ? "asc" : "desc";
    update({ sort: column === "lastOrder" && direction === "desc" ? undefined : `${column}.${direction}` }, { push: true });
  };
  const sortHeading = (column: CustomerSortColumn, label: string, className?: string): ListColumn =>
    sortableColumn({ label, className, sorted: query.sort === column ? query.direction : null, onSort: () => sortBy(column) });
  const columns: ListColumn[] = [
    sortHeading("name", "Customer"),
    { label: "Tags" },
    sortHeading("orders", "Orders", "text-right"),
    sortHeading("spend", "Spend", "text-right"),
    sortHeading("lastOrder", "Last order"),
    { label: "Discount" },
    sortHeading("joined", "Joined"),
  ];
  const activeFilters = ["role"].filter((key) => params.has(key));
  const empty = customers.data && rows.length === 0 ? <>No customers{query.search ? ` match “${query.search}”` : ""}{activeFilters.length ? " with this filter" : ""}.</> : null;
  const dimmed = customers.isPlaceholderData && "opacity-60 transition-opacity";

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-2">
        <ListSearchBox label="Search customers" placeholder="Name, e-mail or tag" currentSearch={query.search} update={update} className="sm:max-w-md" />
        <FilterSelect label="Role" param="role" all="Everyone" className="w-36" options={[{ value: "vip", label: "VIP customers" }, { value: "staff", label: "Staff" }]} params={params} update={update} />
        <ClearFiltersButton active={activeFilters} update={update} />
      </div>
      <ListFrame
        footer={
          <ListPager summary={<span data-testid="customer-count">{countSummary(customers.data)}</span>} page={query.page ?? 1} totalPages={customers.data?.totalPages ?? 1} onPage={goToPage} shortcuts>
            <RowsPerPage value={query.pageSize} update={update} className="hidden items-center gap-1.5 sm:flex" />
          </ListPager>
        }
      >
        <div className="hidden max-h-[calc(100dvh-14rem)] overflow-auto md:block">
          <ListTable columns={columns} loadingRows={customers.isPending ? 12 : 0} bodyClassName={cn(dimmed)} empty={empty} emptyClassName="h-40">
            {rows.map((row) => (
              <AdminTableRow key={row.id} onDoubleClick={() => router.push(customerPath(row.id))}>
                <AdminTableCell>
                  <div className="max-w-64 min-w-0">
                    <Link href={customerPath(row.id)} className="flex items-center gap-1.5 font-medium hover:text-primary hover:underline">
                      <span className="truncate">{row.name ?? row.email}</span>
                      <CustomerBadges role={row.role} erasedAt={row.erasedAt} />
                    </Link>
                    <p className="truncate text-[11px] text-muted-foreground">{row.email}</p>
                  </div>
                </AdminTableCell>
                <AdminTableCell>
                  <p className="max-w-44 truncate text-xs text-muted-foreground" title={row.tags.join(", ")}>
                    {row.tags.join(", ")}
                  </p>
                </AdminTableCell>
                <AdminTableCell className="text-right tabular-nums">{formatCount(row.orders)}</AdminTableCell>
                <AdminTableCell className="text-right whitespace-nowrap tabular-nums">
                  <Spend row={row} />
                </AdminTableCell>
                <AdminTableCell className="whitespace-nowrap text-muted-foreground">{row.lastOrderAt ? formatDate(row.lastOrderAt) : "—"}</AdminTableCell>
                <AdminTableCell className="text-xs whitespace-nowrap">
                  {row.discount ? (
                    <Link href={`/admin/discounts/manage/${row.discount.id}`} className="hover:text-primary hover:underline">
                      {row.discount.name} <span className="text-muted-foreground">{row.discount.label}</span>
                    </Link>
                  ) : (
                    <span className="text-muted-foreground">—</span>
                  )}
                </AdminTableCell>
                <AdminTableCell className="whitespace-nowrap text-muted-foreground">{formatDate(row.joinedAt)}</AdminTableCell>
              </AdminTableRow>
            ))}
          </ListTable>
        </div>
        <ul className={cn("divide-y md:hidden", dimmed)} aria-label="Customers">
          {customers.isPending ? Array.from({ length: 6 }, (_, index) => <li key={index} className="m-3 h-16 animate-pulse rounded bg-muted" />) : null}
          {empty ? <li className="px-3 py-10 text-center text-sm text-muted-foreground">{empty}</li> : null}
          {rows.map((row) => (
            <li key={row.id} className="px-3 py-3">
              <CustomerCard row={row} />
            </li>
          ))}
        </ul>
      </ListFrame>
    </div>
  );
}

/** A customer's card on a phone, where the table does not fit. */
function CustomerCard({ row }: { row: CustomerRow }) {
  return (
    <Link href={customerPath(row.id)} className="block min-w-0 space-y-1">
      <div className="flex items-center justify-between gap-2">
        <span className="flex min-w-0 items-center gap-1.5 font-medium">
          <span className="truncate">{row.name ?? row.email}</span>
          <CustomerBadges role={row.role} erasedAt={row.erasedAt} />
        </span>
        <span className="text-right text-sm whitespace-nowrap tabular-nums">
          <Spend row={row} />
        </span>
      </div>
      <p className="truncate text-xs text-muted-foreground">{row.email}</p>
      <p className="truncate text-[11px] text-muted-foreground">
        {formatCount(row.orders)} order{row.orders === 1 ? "" : "s"}
        {row.lastOrderAt ? ` · last ${formatDate(row.lastOrderAt)}` : ""}
        {row.discount ? ` · ${row.discount.name} ${row.discount.label}` : ""}
        {row.tags.length ? ` · ${row.tags.join(", ")}` : ""}
      </p>
    </Link>
  );
}
