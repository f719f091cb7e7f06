"use client";

import { Bomb, Loader2, Plus, RefreshCw, Search, Send } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { Decimal } from "decimal.js";
import { toast } from "@/components/toast";
import { AdminCard, AdminCardHeader } from "@/components/ui/admin-card";
import { AdminDialog, AdminDialogClose, AdminDialogContent, AdminDialogTrigger } from "@/components/ui/admin-dialog";
import { AdminInput, AdminLabel } from "@/components/ui/admin-form-controls";
import { AdminTableCell, AdminTableRow } from "@/components/ui/admin-table";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";
import type { BoxDetail } from "@/server/stock/schemas";
import { formatEuro } from "@/lib/money";
import { formatCount, formatDate, formatDateTime, formatPeso } from "../kit/format";
import { MISSING_FIELDS_TOAST } from "../kit/forms/is-filled";
import { DeleteRowButton, ListTable } from "../kit/list-table";
import { useAdminProducts } from "../catalog/queries";
import { BoxStatusBadge, BoxStepper } from "./box-status";
import { useAddPurchase, useBox, useExchangeRate, useExplodeBox, useRefreshExchangeRate, useRemovePurchase, useShipBox } from "./queries";
import { NumberInput } from "../kit/forms/number-input";
import { euroRange } from "@/lib/amount-text";

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
  const [invalid, setInvalid] = useState<string[]>([]);
  const ship = useShipBox(box.id, {
    onSuccess: (updated) => {
      setOpen(false);
      toast.success(`Box ${box.id} shipped`, { description: `Tracking ${updated.trackingNumber}` });
    },
  });
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const missing = [!trackingNumber.trim() && "tracking", Number.isNaN(new Date(estimatedDeliveryDate).getTime()) && "date"].filter(Boolean) as string[];
    setInvalid(missing);
    if (missing.length) {
      toast.error(MISSING_FIELDS_TOAST.title, { description: MISSING_FIELDS_TOAST.description });
      return;
    }
    ship.mutate({ boxId: box.id, trackingNumber: trackingNumber.trim(), estimatedDeliveryDate });
  };
  return (
    <AdminDialog open={open} onOpenChange={setOpen}>
      <AdminDialogTrigger asChild>
        <Button size="sm" disabled={box.records === 0} title={box.records === 0 ? "Add purchases before shipping" : undefined}>
          <Send /> Ship box
        </Button>
      </AdminDialogTrigger>
      <AdminDialogContent title={`Ship box ${box.id}`} description={`${box.pieces} pieces in ${box.records} purchases. Once shipped, the purchases cannot change.`}>
        <form noValidate onSubmit={submit} className="space-y-3">
          <div className="space-y-1">
            <AdminLabel htmlFor="ship-tracking" required>
              Tracking number
            </AdminLabel>
            <AdminInput id="ship-tracking" aria-invalid={invalid.includes("tracking") || undefined} value={trackingNumber} onChange={(event) => setTrackingNumber(event.target.value)} placeholder="LX123456789PH" className="font-mono" />
          </div>
          <div className="space-y-1">
            <AdminLabel htmlFor="ship-date" required>
              Estimated delivery
            </AdminLabel>
            <AdminInput id="ship-date" type="date" aria-invalid={invalid.includes("date") || undefined} value={estimatedDeliveryDate} onChange={(event) => setDate(event.target.value)} />
          </div>
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
      toast.success(`Box ${box.id} exploded`, { description: `${updated.pieces} pieces booked into stock.` });
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
            {explode.isPending ? <Loader2 className="animate-spin" /> : <Bomb />} Book {box.pieces} pieces into stock
          </Button>
        </div>
      </AdminDialogContent>
    </AdminDialog>
  );
}

function AddPurchase({ box }: { box: BoxDetail }) {
  const [search, setSearch] = useState("");
  const [picked, setPicked] = useState<{ id: number; name: string } | null>(null);
  const [quantity, setQuantity] = useState("1");
  const [unitCost, setUnitCost] = useState("");
  const [currency, setCurrency] = useState<"EUR" | "PHP">("EUR");
  const rate = useExchangeRate();
  const matches = useAdminProducts(
    { search: search.trim(), pageSize: 25, page: 1, sort: "updatedAt", direction: "desc" },
    search.trim().length >= 2 && !picked,
  );
  const add = useAddPurchase(box.id, {
    onSuccess: () => {
      toast.success("Purchase added", { description: `${quantity} × ${picked?.name}` });
      setPicked(null);
      setSearch("");
      setQuantity("1");
      setUnitCost("");
    },
  });
  const cost = /^\d+([.,]\d{1,2})?$/.test(unitCost.trim()) ? new Decimal(unitCost.trim().replace(",", ".")) : null;
  const converted = cost && rate.data ? (currency === "EUR" ? formatPeso(cost.times(rate.data.rate)) : formatEuro(cost.dividedBy(rate.data.rate))) : null;
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const amount = Number.parseInt(quantity, 10);
    if (!picked || Number.isNaN(amount) || amount < 1 || !cost) {
      toast.error(MISSING_FIELDS_TOAST.title, { description: MISSING_FIELDS_TOAST.description });
      return;
    }
    add.mutate({ boxId: box.id, productId: picked.id, quantity: amount, unitCost: unitCost.trim(), currency });
  };
  return (
    <form noValidate onSubmit={submit} className="grid items-end gap-3 border-t bg-muted/20 px-4 pt-3 pb-6 md:grid-cols-[1fr_6rem_12rem_auto]" aria-label="Add a purchase">
      <div className="relative space-y-1">
        <AdminLabel htmlFor="purchase-product" required>
          Product
        </AdminLabel>
        {picked ? (
          <div className="flex h-9 items-center justify-between rounded-md border bg-card px-3 text-sm">
            <span className="truncate">
              <span className="text-muted-foreground">#{picked.id}</span> {picked.name}
            </span>
            <button type="button" className="text-xs text-primary hover:underline" onClick={() => setPicked(null)}>
              change
            </button>
          </div>
        ) : (
          <div className="relative">
            <Search className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground" />
            <AdminInput id="purchase-product" className="pl-8" value={search} onChange={(event) => setSearch(event.target.value)} placeholder="Search by name or #id" autoComplete="off" />
          </div>
        )}
        {!picked && search.trim().length >= 2 && matches.data ? (
          <ul role="listbox" aria-label="Matching products" className="absolute inset-x-0 top-full z-20 mt-1 max-h-64 overflow-y-auto rounded-md border bg-popover py-1 shadow-lg">
            {matches.data.rows.length === 0 ? <li className="px-3 py-2 text-sm text-muted-foreground">No product matches.</li> : null}
            {matches.data.rows.map((row) => (
              <li key={row.id}>
                <button type="button" role="option" aria-selected={false} className="flex w-full items-center gap-2 px-3 py-1.5 text-left text-sm hover:bg-accent" onClick={() => setPicked({ id: row.id, name: row.name })}>
                  <span className="w-12 shrink-0 text-xs text-muted-foreground">#{row.id}</span>
                  <span className="truncate">{row.name}</span>
                  <span className="ml-auto shrink-0 text-xs text-muted-foreground">{row.stock} in stock</span>
                </button>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      <div className="space-y-1">
        <AdminLabel htmlFor="purchase-quantity" required>
          Pieces
        </AdminLabel>
        <NumberInput id="purchase-quantity" min={1} max={100_000} value={quantity} onChange={(event) => setQuantity(event.target.value)} />
      </div>
      <div className="relative space-y-1">
        <AdminLabel htmlFor="purchase-cost" required>
          Unit cost
        </AdminLabel>
        <div className="flex">
          <NumberInput id="purchase-cost" {...euroRange} value={unitCost} onChange={(event) => setUnitCost(event.target.value)} className="rounded-r-none" placeholder="0.00" />
          <div className="flex rounded-r-md border border-l-0 border-input text-xs" role="radiogroup" aria-label="Currency">
            {(["EUR", "PHP"] as const).map((value) => (
              <button
                key={value}
                type="button"
                role="radio"
                aria-checked={currency === value}
                onClick={() => setCurrency(value)}
                className={cn("px-2 font-medium last:rounded-r-md", currency === value ? "bg-primary text-primary-foreground" : "bg-card text-muted-foreground hover:text-foreground")}
              >
                {value === "EUR" ? "€" : "₱"}
              </button>
            ))}
          </div>
        </div>
        <p className="absolute -bottom-4 left-0 text-[11px] text-muted-foreground">{converted ? `≈ ${converted} each` : ""}</p>
      </div>
      <Button type="submit" size="sm" className="h-9" disabled={add.isPending}>
        {add.isPending ? <Loader2 className="animate-spin" /> : <Plus />} Add purchase
      </Button>
    </form>
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
        {editable ? <AddPurchase box={data} /> : null}
      </AdminCard>
    </div>
  );
}
