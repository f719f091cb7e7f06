"use client";

import { EyeOff, FolderInput, Loader2, PackagePlus, Percent, Rocket } from "lucide-react";
import { useState, type ReactNode } from "react";
import { toast } from "@/components/toast";
import { AdminInput, AdminLabel, AdminSelect } from "@/components/ui/admin-form-controls";
import { AdminDialog, AdminDialogClose, AdminDialogContent, AdminDialogTrigger } from "@/components/ui/admin-dialog";
import { Button } from "@/components/ui/button";
import { bulkProductInput, type BulkProductInput, type ProductFormChoices } from "@/server/catalog/admin-schemas";
import { plural } from "@/lib/plural";
import { purchaseCurrencies, type PurchaseCurrency } from "@/server/stock/schemas";
import { SelectionToolbar, type RowSelection } from "../kit/selectable-list";
import { useBoxes } from "../stock/queries";
import { PublishDialog } from "./publish-controls";
import { useBulkProducts } from "./queries";

const products = (count: number) => `${count} product${count === 1 ? "" : "s"}`;

/** The first reason the schema gives for a bulk action's input, or null when the server may have it. */
function refusalOf(input: BulkProductInput): string | null {
  const parsed = bulkProductInput.safeParse(input);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? "Check the values");
}

/**
 * The product table's bulk bar over the rows picked: publish, unpublish, another category, a price change, a box.
 * Each goes to the server as one change, all or nothing; a refusal (a price that would reach zero, a placeholder
 * left) is shown with the product it names and the dialog stays open.
 */
export function ProductBulkBar({ selection, choices }: { selection: RowSelection; choices: ProductFormChoices | undefined }) {
  const bulk = useBulkProducts();
  const ids = selection.chosen;
  const run = async (input: BulkProductInput, done: string) => {
    const refusal = refusalOf(input);
    if (refusal) {
      toast.error("Error", { description: refusal });
      return false;
    }
    try {
      await bulk.mutateAsync(input);
    } catch {
      // The refusal is toasted as "Nothing was changed" with the server's reason (useBulkProducts).
      return false;
    }
    toast.success(done);
    selection.clear();
    return true;
  };
  return (
    <SelectionToolbar label="Selected products" selection={selection}>
      <PublishDialog
        title={`Publish ${products(ids.length)}`}
        description="Drafts are published and every product goes on the channels you choose; one with a placeholder left stops them all."
        onPublish={(channels) => run({ action: "publish", productIds: ids, channels }, `${products(ids.length)} published`)}
        trigger={
          <Button size="sm" variant="outline">
            <Rocket /> Publish…
          </Button>
        }
      />
      <Button size="sm" variant="outline" disabled={bulk.isPending} onClick={() => void run({ action: "unpublish", productIds: ids }, `${products(ids.length)} taken off the web shop and eBay`)}>
        <EyeOff /> Unpublish
      </Button>
      <CategoryDialog count={ids.length} choices={choices} onMove={(categoryId) => run({ action: "category", productIds: ids, categoryId }, `${products(ids.length)} moved`)} />
      <PriceDialog count={ids.length} onChange={(change) => run({ action: "price", productIds: ids, change }, `Prices of ${products(ids.length)} changed`)} />
      <BoxDialog count={ids.length} onAdd={(purchase) => run({ action: "box", productIds: ids, ...purchase }, `${products(ids.length)} added to box ${purchase.boxId}`)} />
    </SelectionToolbar>
  );
}

/** A bulk action's dialog: its fields, and a button that runs it (the dialog closes when it went through). */
function BulkDialog({ trigger, title, description, confirm, onConfirm, children }: { trigger: ReactNode; title: string; description: string; confirm: string; onConfirm: () => Promise<boolean>; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      if (await onConfirm()) setOpen(false);
    } finally {
      setBusy(false);
    }
  };
  return (
    <AdminDialog open={open} onOpenChange={setOpen}>
      <AdminDialogTrigger asChild>{trigger}</AdminDialogTrigger>
      <AdminDialogContent title={title} description={description}>
        <form noValidate onSubmit={(event) => void submit(event)} className="space-y-3">
          {children}
          <div className="flex justify-end gap-2 pt-1">
            <AdminDialogClose asChild>
              <Button type="button" variant="outline" size="sm">
                Cancel
              </Button>
            </AdminDialogClose>
            <Button type="submit" size="sm" disabled={busy}>
              {busy ? <Loader2 className="animate-spin" /> : null} {confirm}
            </Button>
          </div>
        </form>
      </AdminDialogContent>
    </AdminDialog>
  );
}

function Field({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="space-y-1">
      <AdminLabel htmlFor={id} required>
        {label}
      </AdminLabel>
      {children}
    </div>
  );
}

function CategoryDialog({ count, choices, onMove }: { count: number; choices: ProductFormChoices | undefined; onMove: (categoryId: number) => Promise<boolean> }) {
  const [categoryId, setCategoryId] = useState("");
  return (
    <BulkDialog
      title={`Move ${products(count)}`}
      description="Into another category; the shop's menus and searches follow."
      confirm="Move"
      onConfirm={() => onMove(Number(categoryId || Number.NaN))}
      trigger={
        <Button size="sm" variant="outline">
          <FolderInput /> Category…
        </Button>
      }
    >
      <Field id="bulk-category" label="Category">
        <AdminSelect id="bulk-category" value={categoryId} onChange={(event) => setCategoryId(event.target.value)}>
          <option value="">Choose a category</option>
          {choices?.categories.map((choice) => (
            <option key={choice.id} value={choice.id}>
              {choice.label}
            </option>
          ))}
        </AdminSelect>
      </Field>
    </BulkDialog>
  );
}

type PriceChangeDraft = { by: "percent" | "amount"; direction: "up" | "down"; value: string };

function PriceDialog({ count, onChange }: { count: number; onChange: (change: PriceChangeDraft) => Promise<boolean> }) {
  const [change, setChange] = useState<PriceChangeDraft>({ by: "percent", direction: "up", value: "" });
  return (
    <BulkDialog
      title={`Change the price of ${products(count)}`}
      description="Each price moves by the same percentage or amount, rounded to the cent. A price that would reach €0.00 or less stops the change for all."
      confirm="Change prices"
      onConfirm={() => onChange(change)}
      trigger={
        <Button size="sm" variant="outline">
          <Percent /> Price…
        </Button>
      }
    >
      <div className="grid grid-cols-2 gap-3">
        <Field id="bulk-price-direction" label="Direction">
          <AdminSelect id="bulk-price-direction" value={change.direction} onChange={(event) => setChange({ ...change, direction: event.target.value as PriceChangeDraft["direction"] })}>
            <option value="up">Up</option>
            <option value="down">Down</option>
          </AdminSelect>
        </Field>
        <Field id="bulk-price-by" label="By">
          <AdminSelect id="bulk-price-by" value={change.by} onChange={(event) => setChange({ ...change, by: event.target.value as PriceChangeDraft["by"] })}>
            <option value="percent">Percentage (%)</option>
            <option value="amount">Amount (€)</option>
          </AdminSelect>
        </Field>
      </div>
      <Field id="bulk-price-value" label={change.by === "percent" ? "Percentage" : "Amount in euros"}>
        <AdminInput id="bulk-price-value" inputMode="decimal" autoComplete="off" value={change.value} onChange={(event) => setChange({ ...change, value: event.target.value })} placeholder={change.by === "percent" ? "10" : "2.50"} />
      </Field>
    </BulkDialog>
  );
}

type PurchaseDraft = { boxId: number; quantity: number; unitCost: string; currency: PurchaseCurrency };

function BoxDialog({ count, onAdd }: { count: number; onAdd: (purchase: PurchaseDraft) => Promise<boolean> }) {
  const boxes = useBoxes(["OPEN"]);
  const [boxId, setBoxId] = useState("");
  const [quantity, setQuantity] = useState("");
  const [unitCost, setUnitCost] = useState("");
  const [currency, setCurrency] = useState<PurchaseCurrency>("EUR");
  return (
    <BulkDialog
      title={`Add ${products(count)} to a box`}
      description="A purchase of each product in an open box, the same pieces and cost per piece for each; they reach stock when the box arrives."
      confirm="Add to box"
      onConfirm={() => onAdd({ boxId: Number(boxId || Number.NaN), quantity: Number(quantity || Number.NaN), unitCost, currency })}
      trigger={
        <Button size="sm" variant="outline">
          <PackagePlus /> Add to box…
        </Button>
      }
    >
      <Field id="bulk-box" label="Open box">
        <AdminSelect id="bulk-box" value={boxId} onChange={(event) => setBoxId(event.target.value)}>
          <option value="">{boxes.data?.length === 0 ? "No box is open" : "Choose a box"}</option>
          {boxes.data?.map((box) => (
            <option key={box.id} value={box.id}>
              Box {box.id} · {plural(box.pieces, "piece")}
            </option>
          ))}
        </AdminSelect>
      </Field>
      <div className="grid grid-cols-2 gap-3">
        <Field id="bulk-box-quantity" label="Pieces of each">
          <AdminInput id="bulk-box-quantity" inputMode="numeric" autoComplete="off" value={quantity} onChange={(event) => setQuantity(event.target.value)} placeholder="10" />
        </Field>
        <Field id="bulk-box-cost" label="Cost per piece">
          <div className="flex gap-2">
            <AdminInput id="bulk-box-cost" inputMode="decimal" autoComplete="off" value={unitCost} onChange={(event) => setUnitCost(event.target.value)} placeholder="2.50" className="min-w-0 flex-1" />
            <AdminSelect aria-label="Currency" value={currency} onChange={(event) => setCurrency(event.target.value as PurchaseCurrency)} className="w-20">
              {purchaseCurrencies.map((value) => (
                <option key={value}>{value}</option>
              ))}
            </AdminSelect>
          </div>
        </Field>
      </div>
    </BulkDialog>
  );
}
