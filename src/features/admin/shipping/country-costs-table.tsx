"use client";

import { ChevronRight, Loader2 } from "lucide-react";
import Link from "next/link";
import { AdminBadge } from "@/components/ui/admin-badge";
import { AdminCard, AdminCardHeader } from "@/components/ui/admin-card";
import { AdminTableCell, AdminTableRow } from "@/components/ui/admin-table";
import { formatEuro } from "@/lib/money";
import { cn } from "@/lib/utils";
import type { AdminCountryRow } from "@/server/shipping/costs-schemas";
import { ListSearchBox } from "../kit/list-search-box";
import { ListTable, type ListColumn } from "../kit/list-table";
import { useListAddress } from "../kit/use-list-address";
import { useCountryCosts } from "./queries";
import { ShippingCostsNav } from "./shipping-costs-nav";

const columns: ListColumn[] = [
  { label: "Country" },
  { label: "Untracked", className: "text-right" },
  { label: "Tracked", className: "text-right" },
  { label: "Untracked up to", className: "text-right" },
  { label: "Regions", className: "text-right" },
  { label: <span className="sr-only">Edit</span>, className: "w-10" },
];

const countryHref = (code: string) => `/admin/shippingSurcharge/countries/${code}`;

const days = (count: number) => `${count} day${count === 1 ? "" : "s"}`;

/**
 * /admin/shippingSurcharge/countries: every country the shop knows, shipped to or not, with what each method costs,
 * how long it takes and up to which order value untracked post is allowed. `?search=` (name or code) is kept in the
 * address; a row opens the country's form.
 */
export function CountryCostsTable() {
  const { params, update } = useListAddress();
  const search = params.get("search") ?? undefined;
  const countries = useCountryCosts({ search });
  const rows = countries.data ?? [];
  const served = rows.filter((row) => row.active).length;
  const empty = countries.data && rows.length === 0 ? <>No country{search ? ` matches “${search}”` : ""}.</> : null;

  return (
    <>
      <ShippingCostsNav />
      <AdminCard>
        <AdminCardHeader
          title="Countries & regions"
          description={
            countries.data
              ? `${search ? `${rows.length} found, ${served} of them shipped to.` : `${served} of ${rows.length} countries shipped to.`} Prices are per parcel, before the surcharge band.`
              : "Where the shop ships, and for how much."
          }
          actions={countries.isFetching ? <Loader2 className="size-4 animate-spin text-muted-foreground" /> : null}
        />
        <div className="border-b px-4 py-3">
          <ListSearchBox label="Search countries" placeholder="Search by name or code (NL, Germany)…" currentSearch={search} update={update} className="max-w-md" />
        </div>
        <div className="md:overflow-x-auto">
          <ListTable stacked columns={columns} loadingRows={countries.isPending ? 10 : 0} empty={empty} bodyClassName={cn(countries.isPlaceholderData && "opacity-60 transition-opacity")}>
            {rows.map((row) => (
              <CountryRow key={row.code} row={row} />
            ))}
          </ListTable>
        </div>
      </AdminCard>
    </>
  );
}

function CountryRow({ row }: { row: AdminCountryRow }) {
  const href = countryHref(row.code);
  return (
    <AdminTableRow className={cn(!row.active && "text-muted-foreground")}>
      <AdminTableCell>
        <span className="flex flex-wrap items-center gap-2">
          <span className="w-7 font-mono text-xs text-muted-foreground">{row.code}</span>
          <Link href={href} className="font-medium hover:underline">
            {row.name}
          </Link>
          {row.eu ? <AdminBadge tone="info">EU</AdminBadge> : null}
          {row.active ? null : <AdminBadge tone="warning">not shipped to</AdminBadge>}
        </span>
      </AdminTableCell>
      <AdminTableCell data-label="Untracked" className="text-right">
        {formatEuro(row.untrackedCost)}
        <span className="block text-xs text-muted-foreground">{days(row.untrackedEtaDays)}</span>
      </AdminTableCell>
      <AdminTableCell data-label="TNT (tracked)" className="text-right">
        {formatEuro(row.tntCost)}
        <span className="block text-xs text-muted-foreground">{days(row.tntEtaDays)}</span>
      </AdminTableCell>
      <AdminTableCell data-label="Untracked up to" className="text-right">
        {formatEuro(row.maxOrderUntracked)}
      </AdminTableCell>
      <AdminTableCell data-label="Regions" className="text-right text-xs">{row.regionCount ? `${row.activeRegionCount} of ${row.regionCount} served` : "—"}</AdminTableCell>
      <AdminTableCell data-corner>
        <Link href={href} aria-label={`Edit ${row.name}`} className="flex size-8 items-center justify-center rounded hover:bg-accent">
          <ChevronRight className="size-4" />
        </Link>
      </AdminTableCell>
    </AdminTableRow>
  );
}
