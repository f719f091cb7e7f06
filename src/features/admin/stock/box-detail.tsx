"use client";

import { Bomb, Loader2, RefreshCw, Send } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { toast } from "@/components/toast";
import { AdminCard, AdminCardHeader } from "@/components/ui/admin-card";
import { AdminDialog, AdminDialogClose, AdminDialogContent, AdminDialogTrigger } from "@/components/ui/admin-dialog";
import { AdminInput } from "@/components/ui/admin-form-controls";
import { AdminTableCell, AdminTableRow } from "@/components/ui/admin-table";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";
import { shipBoxInput, type BoxDetail } from "@/server/stock/schemas";
import { formatEuro } from "@/lib/money";
import { plural } from "@/lib/plural";
import { formatCount, formatDate, formatDateTime, formatPeso } from "../kit/format";
import { FormField } from "../kit/forms/form-field";
import { MISSING_FIELDS_TOAST } from "../kit/forms/is-filled";
import { DeleteRowButton, ListTable } from "../kit/list-table";
import { BoxStatusBadge, BoxStepper } from "./box-status";
import { useBox, useExchangeRate, useExplodeBox, useRefreshExchangeRate, useRemovePurchase, useShipBox } from "./queries";
import { AddPurchase } from "./purchase-form";

function ExchangeRate() {
  const rate = useExchangeRate();
  const refresh = useRefreshExchangeRate({
    onSuccess: (info) => toast.success("Exchange rate refreshed", { description: `€1 = ₱${info.rate.toFixed(4)}` }),
  });
  return (
    <div className="flex flex-wrap items-center gap-x-2 gap-y-0.5 rounded-md border bg-card px-3 py-1.5 text-xs">
      <span className="text-muted-foreground">Rate</span>
      <span className="font-semibold tabular-nums" data-testid="exchange-rate">
        {rate.data ? `€1 = ₱${rate.data.rate.toFixed(4)}` : "…"}
      </span>
      {rate.data ? <span className="text-muted-foreground">· {rate.data.source === "live" ? "ECB" : "fixed"} · {formatDateTime(rate.data.updatedAt)}</span> : null}
      <Button variant="ghost" size="icon" className="size-6" aria-label="Refresh the exchange rate" disabled={refresh.isPending} onClick={() => refresh.mutate()}>
        <RefreshCw className={cn("size-3.5", refresh.isPending && "animate-spin")} />
      </Button>
    </div>
  );
}

function ShipDialog({ box }: { box: BoxDetail }) {
  const [open, setOpen] = useState(false);
  const [trackingNumber, setTrackingNumber] = useState("");
  const [estimatedDeliveryDate, setDate] = useState("");
  // Each refused field with the reason the server's schema gives (shipBoxInput), under the field.
  const [refused, setRefused] = useState<Record<string, string>>({});
  const ship = useShipBox(box.id, {
    onSuccess: (updated) => {
      setOpen(false);
      toast.success(`Box ${box.id} shipped`, { description: `Tracking ${updated.trackingNumber}` });
    },
  });
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const input = { boxId: box.id, trackingNumber: trackingNumber.trim(), estimatedDeliveryDate };
    const checked = shipBoxInput.safeParse(input);
    const reasons: Record<string, string> = {};
    for (const issue of checked.error?.issues ?? []) reasons[String(issue.path[0])] ??= issue.message;
    setRefused(reasons);
    if (!checked.success) {
      const missing = !input.trackingNumber || !estimatedDeliveryDate;
      toast.error("Error", { description: missing ? MISSING_FIELDS_TOAST.description : Object.values(reasons)[0] });
      return;
    }
    ship.mutate(input);
  };
  return (
    <AdminDialog open={open} onOpenChange={setOpen}>
      <AdminDialogTrigger asChild>
        <Button size="sm" disabled={box.records === 0} title={box.records === 0 ? "Add purchases before shipping" : undefined}>
          <Send /> Ship box
        </Button>
      </AdminDialogTrigger>
      <AdminDialogContent title={`Ship box ${box.id}`} description={`${plural(box.pieces, "piece")} in ${plural(box.records, "purchase")}. Once shipped, the purchases cannot change.`}>
        <form noValidate onSubmit={submit} className="space-y-3">
          <FormField label="Tracking number" htmlFor="ship-tracking" required error={refused.trackingNumber}>
            <AdminInput id="ship-tracking" aria-invalid={refused.trackingNumber ? true : undefined} aria-describedby={refused.trackingNumber ? "ship-tracking-note" : undefined} value={trackingNumber} onChange={(event) => setTrackingNumber(event.target.value)} placeholder="LX123456789PH" className="font-mono" />
          </FormField>
          <FormField label="Estimated delivery" htmlFor="ship-date" required error={refused.estimatedDeliveryDate}>
            <AdminInput id="ship-date" type="date" aria-invalid={refused.estimatedDeliveryDate ? true : undefined} aria-describedby={refused.estimatedDeliveryDate ? "ship-date-note" : undefined} value={estimatedDeliveryDate} onChange={(event) => setDate(event.target.value)} />
          </FormField>
          <div className="flex justify-end gap-2 pt-1">
            <AdminDialogClose asChild>
              <Button type="button" variant="outline" size="sm">
                Cancel
              </Button>
            </AdminDialogClose>
            <Button type="submit" size="sm" disabled={ship.isPending}>
              {ship.isPending ? <Loader2 className="animate-spin" /> : <Send />} Mark as shipped
            </Button>
          </div>
        </form>
      </AdminDialogContent>
    </AdminDialog>
  );
}

function ExplodeDialog({ box }: { box: BoxDetail }) {
  const [open, setOpen] = useState(false);
  const explode = useExplodeBox(box.id, {
    onSuccess: (updated) => {
      setOpen(false);
      toast.success(`Box ${box.id} exploded`, { description: `${plural(updated.pieces, "piece")} booked into stock.` });
    },
  });
  return (
    <AdminDialog open={open} onOpenChange={setOpen}>
      <AdminDialogTrigger asChild>
        <Button size="sm">
          <Bomb /> Explode box
        </Button>
      </AdminDialogTrigger>
      <AdminDialogContent title={`Explode box ${box.id}?`} description="Unpack the box: every purchase in it is booked into stock through the ledger, all at once. This cannot be undone.">
        <ul className="max-h-48 space-y-1 overflow-y-auto rounded-md border bg-muted/30 p-2 text-sm">
          {box.purchaseRecords.map((record) => (
            <li key={record.id} className="flex justify-between gap-3">
              <span className="truncate">{record.productName}</span>
              <span className="shrink-0 font-medium text-emerald-700 tabular-nums dark:text-emerald-400">+{record.purchasedStock}</span>
            </li>
          ))}
        </ul>
        <div className="mt-4 flex justify-end gap-2">
          <AdminDialogClose asChild>
            <Button type="button" variant="outline" size="sm">
              Not yet
            </Button>
          </AdminDialogClose>
          <Button size="sm" disabled={explode.isPending} onClick={() => explode.mutate({ boxId: box.id })}>
            {explode.isPending ? <Loader2 className="animate-spin" /> : <Bomb />} Book {plural(box.pieces, "piece")} into stock
          </Button>
        </div>
      </AdminDialogContent>
    </AdminDialog>
  );
}

function RemovePurchase({ boxId, purchaseRecordId, name }: { boxId: number; purchaseRecordId: number; name: string }) {
  const remove = useRemovePurchase(boxId);
  return <DeleteRowButton label={`Remove ${name}`} question={`Remove ${name} from the box?`} disabled={remove.isPending} onConfirm={() => remove.mutate({ purchaseRecordId })} />;
}

export function BoxDetailView({ boxId }: { boxId: number }) {
  const box = useBox(boxId);
  if (box.error) return <p className="text-sm text-destructive">{box.error.message}</p>;
  if (!box.data) return <div className="h-96 animate-pulse rounded-lg border bg-muted/40" />;
  const data = box.data;
  const editable = data.status === "OPEN";
  return (
    <div className="space-y-4">
      <AdminCard className="flex flex-wrap items-center gap-x-8 gap-y-4 px-5 py-4">
        <div>
          <div className="flex items-center gap-2">
            <h2 className="text-2xl font-semibold">Box {data.id}</h2>
            <BoxStatusBadge status={data.status} />
          </div>
          <p className="mt-0.5 text-xs text-muted-foreground">
            Opened {formatDateTime(data.createdAt)}
            {data.trackingNumber ? (
              <>
                {" "}· tracking <span className="font-mono">{data.trackingNumber}</span>
              </>
            ) : null}
            {data.estimatedDeliveryDate ? ` · expected ${formatDate(data.estimatedDeliveryDate)}` : null}
          </p>
        </div>
        <BoxStepper status={data.status} />
        <div className="ml-auto flex items-center gap-2">
          {data.status === "OPEN" ? <ShipDialog box={data} /> : null}
          {data.status === "SHIPPED" ? <ExplodeDialog box={data} /> : null}
        </div>
      </AdminCard>

      <div className="grid grid-cols-2 gap-3 xl:grid-cols-4">
        {[
          { label: "Purchases", value: formatCount(data.records) },
          { label: "Pieces", value: formatCount(data.pieces) },
          { label: "Cost in euro", value: formatEuro(data.totalCostEuro) },
          { label: "Cost in peso", value: formatPeso(data.totalCostPhp) },
        ].map((item) => (
          <AdminCard key={item.label} className="px-4 py-3">
            <p className="text-xs text-muted-foreground">{item.label}</p>
            <p className="font-serif text-lg font-semibold tabular-nums [overflow-wrap:anywhere] sm:text-xl">{item.value}</p>
          </AdminCard>
        ))}
      </div>

      <AdminCard>
        <AdminCardHeader
          title="Purchases"
          description={editable ? "What was bought for this box, at what cost per piece." : data.status === "SHIPPED" ? "On its way; explode the box when it arrives." : "Booked into stock."}
          actions={<ExchangeRate />}
        />
        {/* Cards on a phone; a table that would still be wider than a narrow window scrolls inside the card. */}
        <div className="md:overflow-x-auto">
          <ListTable
            stacked
            columns={[
              { label: "Product" },
              { label: "Pieces", className: "text-right" },
              { label: "Unit cost €", className: "text-right" },
              { label: "Unit cost ₱", className: "text-right" },
              { label: "Line €", className: "text-right" },
              { label: "Now in stock", className: "text-right" },
              ...(editable ? [{ className: "w-10" }] : []),
            ]}
            empty={data.purchaseRecords.length === 0 ? "No purchases yet. Find a product below and add what you bought." : null}
            emptyClassName="h-20"
          >
            {data.purchaseRecords.map((record) => (
              <AdminTableRow key={record.id} data-testid="purchase-row">
                <AdminTableCell>
                  <Link href={`/admin/products/edit?id=${record.productId}&tab=stock`} className="hover:text-primary hover:underline">
                    {record.productName}
                  </Link>
                  <span className="ml-2 text-xs text-muted-foreground">#{record.productId}</span>
                </AdminTableCell>
                <AdminTableCell data-label="Pieces" className="text-right font-medium">{record.purchasedStock}</AdminTableCell>
                <AdminTableCell data-label="Unit cost €" className="text-right">{formatEuro(record.purchaseCostEuro)}</AdminTableCell>
                <AdminTableCell data-label="Unit cost ₱" className="text-right text-muted-foreground">{formatPeso(record.purchaseCostPhp)}</AdminTableCell>
                <AdminTableCell data-label="Line €" className="text-right">{formatEuro(record.purchaseCostEuro.times(record.purchasedStock))}</AdminTableCell>
                <AdminTableCell data-label="Now in stock" className="text-right">{record.productStock}</AdminTableCell>
                {editable ? (
                  <AdminTableCell data-corner>
                    <RemovePurchase boxId={data.id} purchaseRecordId={record.id} name={record.productName} />
                  </AdminTableCell>
                ) : null}
              </AdminTableRow>
            ))}
          </ListTable>
        </div>
        {editable ? <AddPurchase boxId={data.id} /> : null}
      </AdminCard>
    </div>
  );
}
