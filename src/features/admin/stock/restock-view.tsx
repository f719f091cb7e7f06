"use client";

import { Check, RotateCcw, X } from "lucide-react";
import Link from "next/link";
import { AdminBadge } from "@/components/ui/admin-badge";
import { AdminCard, AdminCardHeader } from "@/components/ui/admin-card";
import { AdminTableCell, AdminTableRow } from "@/components/ui/admin-table";
import { Button } from "@/components/ui/button";
import type { RestockStatus } from "@/lib/enums";
import { cn } from "@/lib/utils";
import { formatEuro } from "@/lib/money";
import { formatDateTime } from "../kit/format";
import { ListTable } from "../kit/list-table";
import { AddToBoxDialog } from "./add-to-box-dialog";
import { useDecideRestock, useRequestRestock, useRestockCandidates, useRestockCounts, useRestocks } from "./queries";

const tabs: { status: RestockStatus; label: string; description: string }[] = [
  { status: "PENDING", label: "Pending", description: "Decide whether to buy these again." },
  { status: "APPROVED", label: "Approved", description: "To buy: add them to an open box. They move to Received when their pieces come into stock." },
  { status: "REJECTED", label: "Rejected", description: "Not bought again, for now." },
  { status: "RECEIVED", label: "Received", description: "Bought again and in stock: a box with them was exploded or stock was added by a correction. A new sell-out puts them forward again." },
];

/** The restock manager at one status; the pending page also offers sold-out products nobody has put forward. */
export function RestockView({ status }: { status: RestockStatus }) {
  const list = useRestocks(status);
  const counts = useRestockCounts();
  const candidates = useRestockCandidates(status === "PENDING");
  const decide = useDecideRestock();
  const request = useRequestRestock();

  return (
    <div className="space-y-4">
      <nav className="grid grid-cols-2 gap-1 rounded-lg border bg-card p-1 text-sm sm:flex" aria-label="Restock status">
        {tabs.map((tab) => (
          <Link
            key={tab.status}
            href={`/admin/products/restock-manager/${tab.status.toLowerCase()}`}
            aria-current={tab.status === status ? "page" : undefined}
            className={cn("flex flex-1 items-center justify-center gap-2 rounded-md px-3 py-1.5 text-muted-foreground hover:text-foreground", tab.status === status && "bg-primary/12 font-medium text-foreground")}
          >
            {tab.label}
            <span className="rounded-full bg-muted px-1.5 text-[11px] tabular-nums">{counts.data?.[tab.status] ?? "·"}</span>
          </Link>
        ))}
      </nav>
      <AdminCard>
        <AdminCardHeader
          title={`${tabs.find((tab) => tab.status === status)?.label} restock requests`}
          description={tabs.find((tab) => tab.status === status)?.description ?? ""}
        />
        <ListTable
          stacked
          columns={[
            { label: "Product" },
            { label: "Price", className: "text-right" },
            { label: "Last unit cost", className: "text-right" },
            { label: "Stock", className: "text-right" },
            { label: status === "RECEIVED" ? "Received" : "Since" },
            ...(status === "RECEIVED" ? [] : [{ label: "Decision", className: "text-right" }]),
          ]}
          empty={list.data?.length === 0 ? "Nothing here." : null}
          emptyClassName="h-20"
        >
          {list.data?.map((row) => (
            <AdminTableRow key={row.id}>
              <AdminTableCell>
                <Link href={`/admin/products/edit?id=${row.productId}&tab=stock`} className="font-medium hover:text-primary hover:underline">
                  {row.productName}
                </Link>
                <span className="ml-2 text-xs text-muted-foreground">#{row.productId}</span>
              </AdminTableCell>
              <AdminTableCell data-label="Price" className="text-right">{formatEuro(row.price)}</AdminTableCell>
              <AdminTableCell data-label="Last unit cost" className="text-right text-muted-foreground">{row.lastUnitCostEuro ? formatEuro(row.lastUnitCostEuro) : "—"}</AdminTableCell>
              <AdminTableCell data-label="Stock" className="text-right">
                {row.stock}
                {row.incoming ? <AdminBadge tone="info" className="ml-2 whitespace-nowrap">+{row.incoming} coming</AdminBadge> : null}
              </AdminTableCell>
              <AdminTableCell data-label={status === "RECEIVED" ? "Received" : "Since"} className="text-muted-foreground">{formatDateTime(row.updatedAt)}</AdminTableCell>
              {status === "RECEIVED" ? null : (
                <AdminTableCell className="text-right">
                  <div className="flex flex-wrap justify-end gap-1 max-md:justify-start lg:flex-nowrap">
                    {status === "APPROVED" ? <AddToBoxDialog request={row} /> : null}
                    {status !== "APPROVED" ? (
                      <Button size="sm" variant="outline" className="h-8" disabled={decide.isPending} onClick={() => decide.mutate({ id: row.id, status: "APPROVED" })}>
                        <Check /> Approve
                      </Button>
                    ) : null}
                    {status !== "REJECTED" ? (
                      <Button size="sm" variant="ghost" className="h-8 text-destructive hover:text-destructive" disabled={decide.isPending} onClick={() => decide.mutate({ id: row.id, status: "REJECTED" })}>
                        <X /> Reject
                      </Button>
                    ) : (
                      <Button size="sm" variant="ghost" className="h-8" disabled={decide.isPending} onClick={() => decide.mutate({ id: row.id, status: "PENDING" })}>
                        <RotateCcw /> Reconsider
                      </Button>
                    )}
                  </div>
                </AdminTableCell>
              )}
            </AdminTableRow>
          ))}
        </ListTable>
      </AdminCard>
      {status === "PENDING" ? (
        <AdminCard>
          <AdminCardHeader title="Sold out, not yet put forward" description="Products on the shop with no stock and no open restock request (one received before counts as closed)." />
          <ul className="divide-y">
            {candidates.data?.length === 0 ? <li className="px-4 py-5 text-center text-sm text-muted-foreground">Every sold-out product has a request.</li> : null}
            {candidates.data?.map((row) => (
              <li key={row.productId} className="flex items-center gap-3 px-4 py-2">
                <span className="w-14 text-xs text-muted-foreground">#{row.productId}</span>
                <span className="min-w-0 flex-1 truncate text-sm">{row.productName}</span>
                <span className="text-sm tabular-nums">{formatEuro(row.price)}</span>
                <Button size="sm" variant="outline" className="h-8" disabled={request.isPending} onClick={() => request.mutate({ productId: row.productId })}>
                  Put forward
                </Button>
              </li>
            ))}
          </ul>
        </AdminCard>
      ) : null}
    </div>
  );
}
