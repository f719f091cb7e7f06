"use client";

import { Loader2, Package, Plus } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { AdminKbd } from "@/components/ui/admin-form-controls";
import { AdminTableCell, AdminTableRow } from "@/components/ui/admin-table";
import { Button } from "@/components/ui/button";
import type { BoxStatus } from "@/lib/enums";
import { formatEuro } from "@/lib/money";
import { formatCount, formatDate, formatDateTime, formatPeso } from "../kit/format";
import { ListFrame, ListTable } from "../kit/list-table";
import { useShortcut } from "../kit/use-shortcut";
import { BoxStatusBadge } from "./box-status";
import { useBoxes, useCreateBox } from "./queries";

/** open: boxes being filled. other: boxes in transit and unpacked ones. */
export function BoxList({ view }: { view: "open" | "other" }) {
  const router = useRouter();
  const statuses: BoxStatus[] = view === "open" ? ["OPEN"] : ["SHIPPED", "EXPLODED"];
  const boxes = useBoxes(statuses);
  const create = useCreateBox({ onSuccess: ({ id }) => router.push(`/admin/boxes/${id}`) });
  useShortcut("n", () => !create.isPending && create.mutate(), view === "open");
  return (
    <div className="space-y-3">
      <div className="flex items-center justify-between gap-3">
        <p className="text-sm text-muted-foreground">
          {view === "open"
            ? "Boxes being filled abroad. Add purchases, then ship the box with its tracking number."
            : "Boxes on their way, and boxes already unpacked into stock."}
        </p>
        {view === "open" ? (
          <Button size="sm" onClick={() => create.mutate()} disabled={create.isPending}>
            {create.isPending ? <Loader2 className="animate-spin" /> : <Plus />} Open a new box
            <AdminKbd className="border-primary-foreground/30 bg-primary-foreground/15 text-primary-foreground">N</AdminKbd>
          </Button>
        ) : null}
      </div>
      <ListFrame>
        <ListTable
          stacked
          columns={[
            { label: "Box" },
            { label: "Status" },
            { label: "Purchases", className: "text-right" },
            { label: "Pieces", className: "text-right" },
            { label: "Cost (€)", className: "text-right" },
            { label: "Cost (₱)", className: "text-right" },
            { label: "Tracking" },
            { label: view === "open" ? "Opened" : "Delivery" },
          ]}
          empty={
            boxes.data?.length === 0 ? (
              <>
                <Package className="mx-auto mb-2 size-6 text-brass" />
                {view === "open" ? "No open boxes. Open one when you start buying for the next shipment." : "No boxes have been shipped yet."}
              </>
            ) : null
          }
        >
          {boxes.data?.map((box) => (
            <AdminTableRow key={box.id} className="cursor-pointer" onClick={() => router.push(`/admin/boxes/${box.id}`)}>
              <AdminTableCell>
                <Link href={`/admin/boxes/${box.id}`} className="font-medium hover:text-primary hover:underline" onClick={(event) => event.stopPropagation()}>
                  Box {box.id}
                </Link>
              </AdminTableCell>
              <AdminTableCell data-corner>
                <BoxStatusBadge status={box.status} />
              </AdminTableCell>
              <AdminTableCell data-label="Purchases" className="text-right">
                {formatCount(box.records)}
              </AdminTableCell>
              <AdminTableCell data-label="Pieces" className="text-right">
                {formatCount(box.pieces)}
              </AdminTableCell>
              <AdminTableCell data-label="Cost (€)" className="text-right font-medium">
                {formatEuro(box.totalCostEuro)}
              </AdminTableCell>
              <AdminTableCell data-label="Cost (₱)" className="text-right text-muted-foreground">
                {formatPeso(box.totalCostPhp)}
              </AdminTableCell>
              <AdminTableCell data-label="Tracking" className="font-mono text-xs">
                {box.trackingNumber ?? "—"}
              </AdminTableCell>
              <AdminTableCell data-label={view === "open" ? "Opened" : "Delivery"} className="text-muted-foreground">
                {view === "open" ? formatDateTime(box.createdAt) : box.estimatedDeliveryDate ? formatDate(box.estimatedDeliveryDate) : "—"}
              </AdminTableCell>
            </AdminTableRow>
          ))}
        </ListTable>
      </ListFrame>
    </div>
  );
}
