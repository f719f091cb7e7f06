"use client";

import Link from "next/link";
import { useMemo } from "react";
import { AdminBadge } from "@/components/ui/admin-badge";
import { AdminSwitch } from "@/components/ui/admin-form-controls";
import { AdminTableCell, AdminTableRow } from "@/components/ui/admin-table";
import { toast } from "@/components/toast";
import { discountTypes } from "@/lib/enums";
import { cn } from "@/lib/utils";
import { discountStatuses, formatShopDateTime, type DiscountListInput, type DiscountRow } from "@/server/discounts/admin-schemas";
import { formatEuro } from "@/lib/money";
import { plural } from "@/lib/plural";
import { formatCount } from "../kit/format";
import { ClearFiltersButton, FilterSelect, ListFrame, ListTable, NewItemLink } from "../kit/list-table";
import { useListAddress } from "../kit/use-list-address";
import { discountStatusLabels, discountStatusTones, discountTypeLabels } from "./labels";
import { useDiscounts, useSetDiscountActive } from "./queries";

/** The list's filters live in the address, so a filtered list can be bookmarked and gone back to. */
function readQuery(search: URLSearchParams): DiscountListInput {
  const oneOf = <T extends string>(key: string, values: readonly T[]) => {
    const value = search.get(key);
    return values.includes(value as T) ? (value as T) : undefined;
  };
  return { type: oneOf("type", discountTypes), status: oneOf("status", discountStatuses) };
}

/** A discount's window in the shop's time zone: "from … until …", open ends said as such. */
export function WindowText({ startsAt, expiresAt }: Pick<DiscountRow, "startsAt" | "expiresAt">) {
  if (!startsAt && !expiresAt) return <span className="text-muted-foreground">Always</span>;
  return (
    <span className="whitespace-nowrap">
      {startsAt ? formatShopDateTime(startsAt) : <span className="text-muted-foreground">Now</span>}
      <span className="text-muted-foreground"> → </span>
      {expiresAt ? formatShopDateTime(expiresAt) : <span className="text-muted-foreground">no end</span>}
    </span>
  );
}

/** What a discount reaches: its products or customers, the whole shop, or a coupon's terms. */
function Reach({ row }: { row: DiscountRow }) {
  if (row.discountType === "GLOBAL") return <span className="text-muted-foreground">Every product</span>;
  if (row.discountType === "PRODUCT") return <span>{plural(row.targets ?? 0, "product")}</span>;
  if (row.discountType === "USER") return <span>{plural(row.targets ?? 0, "customer")}</span>;
  const terms = [row.minOrderValue ? `from ${formatEuro(row.minOrderValue)}` : null, row.usageLimit ? `${plural(row.usageLimit, "use")} at most` : null].filter(Boolean);
  return <span className="text-muted-foreground">{terms.length ? terms.join(" · ") : "Any cart"}</span>;
}

const columns = [
  { label: "Discount" },
  { label: "Kind" },
  { label: "Value", className: "text-right" },
  { label: "Window (shop time)" },
  { label: "Status" },
  { label: "Applies to" },
  { label: "Uses", className: "text-right" },
  { label: "Revenue", className: "text-right" },
  { label: "Active", className: "w-16" },
];

export function DiscountList() {
  const { router, params, update } = useListAddress();
  const query = useMemo(() => readQuery(new URLSearchParams(params.toString())), [params]);
  const discounts = useDiscounts(query);
  const setActive = useSetDiscountActive();

  const toggle = (row: DiscountRow, active: boolean) =>
    setActive.mutate(
      { id: row.id, active },
      { onSuccess: () => toast.success(active ? "Switched on" : "Switched off", { description: `${row.name} ${active ? "applies again within its window" : "no longer applies"}.` }) },
    );
  const activeFilters = ["type", "status"].filter((key) => params.has(key));
  const rows = discounts.data ?? [];

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-2">
        <FilterSelect label="Kind" param="type" all="All kinds" className="w-40" options={discountTypes.map((value) => ({ value, label: discountTypeLabels[value] }))} params={params} update={update} />
        <FilterSelect label="Status" param="status" all="Any status" className="w-40" options={discountStatuses.map((value) => ({ value, label: discountStatusLabels[value] }))} params={params} update={update} />
        <ClearFiltersButton active={activeFilters} update={update} />
        <NewItemLink href="/admin/discounts/create">New discount</NewItemLink>
      </div>
      <ListFrame
        scroll="md:max-h-[calc(100dvh-11rem)]"
        footer={
          <footer className="border-t bg-muted/40 px-3 py-2 text-xs text-muted-foreground" data-testid="discount-count">
            {discounts.data ? `${plural(rows.length, "discount")} · uses count orders not cancelled; revenue is what they paid for their items` : "Loading…"}
          </footer>
        }
      >
        <ListTable
          stacked
          columns={columns}
          loadingRows={discounts.isPending ? 8 : 0}
          bodyClassName={cn(discounts.isPlaceholderData && "opacity-60 transition-opacity")}
          empty={discounts.data && rows.length === 0 ? (activeFilters.length ? "No discount matches these filters." : "No discounts yet: create the first one.") : null}
          emptyClassName="h-40"
        >
          {rows.map((row) => (
            <AdminTableRow key={row.id} onDoubleClick={() => router.push(`/admin/discounts/manage/${row.id}`)}>
              <AdminTableCell>
                <Link href={`/admin/discounts/manage/${row.id}`} className={cn("font-medium hover:text-primary hover:underline", row.discountType === "COUPON" && "font-mono")}>
                  {row.name}
                </Link>
                <span className="ml-2 text-[11px] text-muted-foreground">#{row.id}</span>
              </AdminTableCell>
              <AdminTableCell data-label="Kind">{discountTypeLabels[row.discountType]}</AdminTableCell>
              <AdminTableCell data-label="Value" className="text-right font-medium tabular-nums">
                {row.label}
              </AdminTableCell>
              <AdminTableCell data-label="Window (shop time)" className="text-xs">
                <WindowText startsAt={row.startsAt} expiresAt={row.expiresAt} />
              </AdminTableCell>
              <AdminTableCell data-label="Status">
                <AdminBadge tone={discountStatusTones[row.status]}>{discountStatusLabels[row.status]}</AdminBadge>
              </AdminTableCell>
              <AdminTableCell data-label="Applies to" className="text-xs">
                <Reach row={row} />
              </AdminTableCell>
              <AdminTableCell data-label="Uses" className="text-right tabular-nums">
                {formatCount(row.uses)}
                {row.usageLimit ? <span className="text-muted-foreground"> / {formatCount(row.usageLimit)}</span> : null}
              </AdminTableCell>
              <AdminTableCell data-label="Revenue" className="text-right tabular-nums">
                {formatEuro(row.revenue)}
              </AdminTableCell>
              <AdminTableCell data-label="Active">
                <AdminSwitch
                  checked={row.active}
                  disabled={setActive.isPending && setActive.variables?.id === row.id}
                  onCheckedChange={(checked) => toggle(row, checked)}
                  aria-label={`${row.name}: ${row.active ? "switch off" : "switch on"}`}
                />
              </AdminTableCell>
            </AdminTableRow>
          ))}
        </ListTable>
      </ListFrame>
    </div>
  );
}
