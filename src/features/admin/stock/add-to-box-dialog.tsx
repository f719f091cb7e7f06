"use client";

import { Loader2, PackagePlus, Plus } from "lucide-react";
import { useState } from "react";
import { useWatch } from "react-hook-form";
import { toast } from "@/components/toast";
import { AdminDialog, AdminDialogClose, AdminDialogContent, AdminDialogTrigger } from "@/components/ui/admin-dialog";
import { AdminSelect } from "@/components/ui/admin-form-controls";
import { Button } from "@/components/ui/button";
import { formatEuro } from "@/lib/money";
import { plural } from "@/lib/plural";
import type { RestockRow } from "@/server/stock/schemas";
import { formatDateTime } from "../kit/format";
import { FormField, fieldProps } from "../kit/forms/form-field";
import { AddPurchaseButton, PurchaseFields, usePurchaseForm } from "./purchase-form";
import { useBoxes, useCreateBox } from "./queries";

/**
 * "Add to an open box" from the restock manager: an approved request bought at last, as a purchase in one of the
 * boxes being filled (the form the box's page has, with the box to choose instead of the product). The request
 * stays approved, its pieces shown as coming, until the box is exploded.
 */
export function AddToBoxDialog({ request }: { request: RestockRow }) {
  const [open, setOpen] = useState(false);
  return (
    <AdminDialog open={open} onOpenChange={setOpen}>
      <AdminDialogTrigger asChild>
        <Button size="sm" variant="outline" className="h-8">
          <PackagePlus /> Add to a box
        </Button>
      </AdminDialogTrigger>
      <AdminDialogContent
        title={`Buy ${request.productName}`}
        description={request.lastUnitCostEuro ? `Last bought at ${formatEuro(request.lastUnitCostEuro)} a piece.` : "Not bought before."}
      >
        {open ? <AddToBoxForm request={request} onAdded={() => setOpen(false)} /> : null}
      </AdminDialogContent>
    </AdminDialog>
  );
}

function AddToBoxForm({ request, onAdded }: { request: RestockRow; onAdded: () => void }) {
  const boxes = useBoxes(["OPEN"]);
  const { form, errorOf, onSubmit, busy } = usePurchaseForm({ boxId: Number.NaN, productId: request.productId }, (input) => {
    toast.success("Purchase added", { description: `${input.quantity} × ${request.productName} in box ${input.boxId}` });
    onAdded();
  });
  const boxId = useWatch({ control: form.control, name: "boxId" });
  const choose = (id: number) => {
    form.setValue("boxId", id, { shouldDirty: true });
    if (!Number.isNaN(id)) form.clearErrors("boxId");
  };
  const create = useCreateBox({
    onSuccess: ({ id }) => {
      void boxes.refetch().then(() => choose(id));
    },
  });
  const error = errorOf("boxId");
  return (
    <form noValidate onSubmit={onSubmit} className="space-y-3" aria-label={`Add ${request.productName} to a box`}>
      <FormField label="Open box" htmlFor="field-boxId" required error={error} hint={boxes.data?.length === 0 ? "No box is being filled: open one." : undefined}>
        <div className="flex gap-2">
          <AdminSelect
            {...fieldProps("boxId", error, true)}
            className="min-w-0 flex-1"
            value={Number.isNaN(boxId) ? "" : String(boxId)}
            onChange={(event) => choose(event.target.value ? Number(event.target.value) : Number.NaN)}
          >
            <option value="">Choose a box…</option>
            {boxes.data?.map((box) => (
              <option key={box.id} value={box.id}>
                Box {box.id}: {plural(box.records, "purchase")}, opened {formatDateTime(box.createdAt)}
              </option>
            ))}
          </AdminSelect>
          <Button type="button" size="sm" variant="outline" className="h-9 shrink-0" disabled={create.isPending} onClick={() => create.mutate()}>
            {create.isPending ? <Loader2 className="animate-spin" /> : <Plus />} New box
          </Button>
        </div>
      </FormField>
      <div className="grid grid-cols-[minmax(0,1fr)] gap-3 sm:grid-cols-2">
        <PurchaseFields form={form} errorOf={errorOf} />
      </div>
      <div className="flex justify-end gap-2 pt-1">
        <AdminDialogClose asChild>
          <Button type="button" variant="outline" size="sm" className="h-9">
            Cancel
          </Button>
        </AdminDialogClose>
        <AddPurchaseButton busy={busy}>Add to the box</AddPurchaseButton>
      </div>
    </form>
  );
}
