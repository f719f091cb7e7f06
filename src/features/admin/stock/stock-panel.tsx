"use client";

import { Loader2, MinusCircle, Truck } from "lucide-react";
import Link from "next/link";
import { useMemo, useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { toast } from "@/components/toast";
import { AdminBadge } from "@/components/ui/admin-badge";
import { AdminCard, AdminCardHeader } from "@/components/ui/admin-card";
import { AdminDialog, AdminDialogContent, AdminDialogTrigger } from "@/components/ui/admin-dialog";
import { AdminSelect, AdminTextarea } from "@/components/ui/admin-form-controls";
import { AdminTableCell, AdminTableRow } from "@/components/ui/admin-table";
import { Button } from "@/components/ui/button";
import { inventoryCorrectionReasons, type InventoryCorrectionReason } from "@/lib/enums";
import { inventoryCorrectionInput, type InventoryCorrectionInput } from "@/server/stock/schemas";
import { cn } from "@/lib/utils";
import { formatEuro } from "@/lib/money";
import { formatDate, formatDateTime, humanize } from "../kit/format";
import { useFieldRefusals } from "../kit/forms/field-refusals";
import { filledThenSchema } from "../kit/forms/filled-resolver";
import { FormField } from "../kit/forms/form-field";
import { ListTable } from "../kit/list-table";
import { useCorrectStock, useIncomingStock, useStockHistory } from "./queries";
import { NumberInput } from "../kit/forms/number-input";

type CorrectionValues = { reason: InventoryCorrectionReason; quantity: string; comment: string };

/** A control's ties to its `FormField` note, under the ids the correction form has always had. */
const describedBy = (id: string, error: string | undefined) => ({ id, "aria-invalid": error ? true : undefined, "aria-describedby": error ? `${id}-note` : undefined });

function CorrectionForm({ productId, onBooked }: { productId: number; onBooked: () => void }) {
  // The schema the server parses the correction with, on the input built from the form: damaged and lost pieces
  // leave stock whatever the sign typed, OTHER takes the sign as typed and needs a comment.
  const resolver = useMemo(
    () =>
      filledThenSchema<CorrectionValues, InventoryCorrectionInput>(inventoryCorrectionInput, ["reason", "quantity"], (values) => {
        const typed = values.quantity.trim() === "" ? Number.NaN : Number(values.quantity.trim());
        return { productId, reason: values.reason, quantity: values.reason === "OTHER" ? typed : -Math.abs(typed), comment: values.comment.trim() || undefined };
      }),
    [productId],
  );
  const form = useForm<CorrectionValues, unknown, InventoryCorrectionInput>({ defaultValues: { reason: "DAMAGED", quantity: "1", comment: "" }, resolver, shouldFocusError: false });
  const refusals = useFieldRefusals(form, { label: (path) => ({ quantity: "Pieces", comment: "Comment", reason: "Reason" })[path] ?? path });
  const reason = useWatch({ control: form.control, name: "reason" });
  const correct = useCorrectStock(productId, {
    onSuccess: (result) => {
      toast.success("Stock corrected", { description: `Stock is now ${result.stock}.` });
      onBooked();
    },
  });
  const removes = reason !== "OTHER";
  const [quantityError, commentError] = [refusals.errorOf("quantity"), refusals.errorOf("comment")];
  return (
    <form noValidate onSubmit={form.handleSubmit((input) => correct.mutateAsync(input).catch(refusals.refuseFromServer), refusals.refuse)} className="space-y-3">
      <div className="grid grid-cols-2 gap-3">
        <FormField label="Reason" htmlFor="correction-reason" required>
          <AdminSelect id="correction-reason" {...form.register("reason")}>
            {inventoryCorrectionReasons.map((value) => (
              <option key={value} value={value}>
                {humanize(value)}
              </option>
            ))}
          </AdminSelect>
        </FormField>
        <FormField label={removes ? "Pieces to remove" : "Change (+ or −)"} htmlFor="correction-quantity" required error={quantityError}>
          <NumberInput {...describedBy("correction-quantity", quantityError)} {...form.register("quantity")} min={-100_000} max={100_000} />
        </FormField>
      </div>
      <FormField label="Comment" htmlFor="correction-comment" required={reason === "OTHER"} error={commentError}>
        <AdminTextarea {...describedBy("correction-comment", commentError)} {...form.register("comment")} placeholder="What happened, for the logbook" />
      </FormField>
      <div className="flex justify-end">
        <Button type="submit" size="sm" disabled={correct.isPending}>
          {correct.isPending ? <Loader2 className="animate-spin" /> : null} Book correction
        </Button>
      </div>
    </form>
  );
}

function CorrectionDialog({ productId, stock }: { productId: number; stock: number }) {
  const [open, setOpen] = useState(false);
  return (
    <AdminDialog open={open} onOpenChange={setOpen}>
      <AdminDialogTrigger asChild>
        <Button size="sm" variant="outline">
          <MinusCircle /> Correct stock
        </Button>
      </AdminDialogTrigger>
      <AdminDialogContent title="Correct stock" description={`Book a damaged, lost or otherwise corrected quantity. ${stock} in stock now.`}>
        {open ? <CorrectionForm productId={productId} onBooked={() => setOpen(false)} /> : null}
      </AdminDialogContent>
    </AdminDialog>
  );
}

const typeTone = { PURCHASE_RECORD: "success", ORDER_ITEM: "info", REFUND: "brass", INVENTORY_CORRECTION: "warning" } as const;

/** The product's stock ledger, every row with its cause and the running balance. */
export function StockPanel({ productId }: { productId: number }) {
  const history = useStockHistory(productId);
  const incoming = useIncomingStock(productId);
  const data = history.data;
  return (
    <div className="space-y-4">
      <div className="grid gap-3 sm:grid-cols-3">
        <AdminCard className="px-4 py-3">
          <p className="text-xs text-muted-foreground">In stock</p>
          <p className="font-serif text-2xl font-semibold tabular-nums" data-testid="stock-now">
            {data?.stock ?? "…"}
          </p>
        </AdminCard>
        <AdminCard className="px-4 py-3">
          <p className="text-xs text-muted-foreground">Ledger rows</p>
          <p className="font-serif text-2xl font-semibold tabular-nums">{data?.rows.length ?? "…"}</p>
          {data && data.ledgerSum !== data.stock ? <p className="text-[11px] text-destructive">Ledger sums to {data.ledgerSum}: investigate.</p> : null}
        </AdminCard>
        <AdminCard className="px-4 py-3">
          <p className="text-xs text-muted-foreground">On the way</p>
          <div className="mt-1 flex flex-wrap gap-1">
            {incoming.data?.length ? (
              incoming.data.map((row) => (
                <Link key={row.boxId} href={`/admin/boxes/${row.boxId}`}>
                  <AdminBadge tone="info">
                    <Truck className="size-3" /> {row.pieces} in box {row.boxId} ({row.status.toLowerCase()})
                  </AdminBadge>
                </Link>
              ))
            ) : (
              <span className="text-sm text-muted-foreground">Nothing</span>
            )}
          </div>
        </AdminCard>
      </div>
      <AdminCard>
        <AdminCardHeader title="Stock history" description="Every change of stock is a ledger row; the balance is the sum up to that row." actions={data ? <CorrectionDialog productId={productId} stock={data.stock} /> : null} />
        <ListTable
          stacked
          columns={[{ label: "When" }, { label: "Type" }, { label: "Source" }, { label: "Change", className: "text-right" }, { label: "Balance", className: "text-right" }]}
          empty={data?.rows.length === 0 ? "No stock has been booked yet. Stock arrives when a box with a purchase of this product is exploded." : null}
          emptyClassName="h-24"
        >
          {[...(data?.rows ?? [])].reverse().map((row) => (
            <AdminTableRow key={row.id} data-testid="ledger-row">
              <AdminTableCell className="whitespace-nowrap text-muted-foreground">{formatDateTime(row.createdAt)}</AdminTableCell>
              <AdminTableCell data-label="Type">
                <AdminBadge tone={typeTone[row.type]}>{humanize(row.type)}</AdminBadge>
              </AdminTableCell>
              <AdminTableCell data-label="Source" className="text-[13px]">
                {row.type === "PURCHASE_RECORD" ? (
                  <span>
                    Purchase {row.purchaseRecordId}
                    {row.boxId ? (
                      <>
                        {" "}in{" "}
                        <Link className="text-primary hover:underline" href={`/admin/boxes/${row.boxId}`}>
                          box {row.boxId}
                        </Link>
                      </>
                    ) : null}
                    {row.unitCostEuro ? <span className="text-muted-foreground"> · {formatEuro(row.unitCostEuro)} each</span> : null}
                  </span>
                ) : row.type === "INVENTORY_CORRECTION" ? (
                  <span>
                    {row.correctionReason ? humanize(row.correctionReason) : "Correction"}
                    {row.correctionComment ? <span className="text-muted-foreground"> — {row.correctionComment}</span> : null}
                  </span>
                ) : row.type === "ORDER_ITEM" ? (
                  <span>Order item {row.orderItemId}</span>
                ) : (
                  <span>Refund {row.refundId}</span>
                )}
              </AdminTableCell>
              <AdminTableCell data-label="Change" className={cn("text-right font-medium", row.quantity > 0 ? "text-emerald-700 dark:text-emerald-400" : "text-destructive")}>
                {row.quantity > 0 ? `+${row.quantity}` : row.quantity}
              </AdminTableCell>
              <AdminTableCell data-label="Balance" className="text-right font-semibold">
                {row.balance}
              </AdminTableCell>
            </AdminTableRow>
          ))}
        </ListTable>
      </AdminCard>
      {data ? <p className="text-[11px] text-muted-foreground">Product #{data.productId} · history as of {formatDate(new Date())}</p> : null}
    </div>
  );
}
