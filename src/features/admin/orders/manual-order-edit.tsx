"use client";

import { BadgeCheck, Loader2, Search } from "lucide-react";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useState } from "react";
import { toast } from "@/components/toast";
import { AdminBadge } from "@/components/ui/admin-badge";
import { AdminInput, AdminSelect } from "@/components/ui/admin-form-controls";
import { Button } from "@/components/ui/button";
import { paymentMethodLabels } from "@/lib/labels";
import { manualOrderPaymentMethods, type EditableManualOrder, type ManualOrderPaymentMethod } from "@/server/orders/manual-order-schemas";
import { formatEuro } from "@/lib/money";
import { ManualOrderForm } from "./manual-order-form";
import { useEditableOrder, useMarkManualOrderPaid } from "./manual-order-queries";
import { manualOrderStatusLabels } from "./manual-order-summary";
import { markPaidMethodOf } from "./manual-order-values";

/** Opens an order by its number. */
function OrderLookup({ initial }: { initial: string }) {
  const router = useRouter();
  const pathname = usePathname();
  const [value, setValue] = useState(initial);
  return (
    <form
      className="flex flex-wrap items-center gap-2 rounded-lg border bg-card px-4 py-3"
      onSubmit={(event) => {
        event.preventDefault();
        const orderNumber = value.trim().toUpperCase();
        if (orderNumber) router.push(`${pathname}?order=${encodeURIComponent(orderNumber)}`);
      }}
    >
      <label htmlFor="order-lookup" className="mr-auto text-sm font-medium">
        Order to edit
      </label>
      <AdminInput id="order-lookup" value={value} onChange={(event) => setValue(event.target.value)} placeholder="BC-2026-000123" className="w-full sm:w-56" autoComplete="off" />
      <Button type="submit" size="sm" variant="outline">
        <Search /> Open
      </Button>
    </form>
  );
}

/** A PENDING order settled with staff, not at a payment provider, is marked paid here once the money is in. */
function MarkPaid({ order }: { order: EditableManualOrder }) {
  const [method, setMethod] = useState<ManualOrderPaymentMethod>(() => markPaidMethodOf(order));
  const markPaid = useMarkManualOrderPaid();
  return (
    <div className="flex flex-wrap items-center gap-2 rounded-md border border-amber-500/30 bg-amber-500/10 px-3 py-2 text-sm">
      <span className="mr-auto">Awaiting {formatEuro(order.totals.total)}.</span>
      <AdminSelect aria-label="Paid by" className="w-40" value={method} onChange={(event) => setMethod(event.target.value as ManualOrderPaymentMethod)}>
        {manualOrderPaymentMethods.map((value) => (
          <option key={value} value={value}>
            {paymentMethodLabels[value]}
          </option>
        ))}
      </AdminSelect>
      <Button
        size="sm"
        disabled={markPaid.isPending}
        onClick={() =>
          markPaid.mutate(
            { orderNumber: order.orderNumber, paymentMethod: method },
            { onSuccess: (saved) => toast.success("Marked paid", { description: `${saved.orderNumber} is ${manualOrderStatusLabels[saved.status].label.toLowerCase()}.` }) },
          )
        }
      >
        {markPaid.isPending ? <Loader2 className="animate-spin" /> : <BadgeCheck />} Mark paid
      </Button>
    </div>
  );
}

/** /admin/orders/edit?order=BC-...: the order's address, lines and shipping, while it is not yet shipped. */
export function ManualOrderEdit() {
  const params = useSearchParams();
  const orderNumber = params.get("order")?.trim() || null;
  const order = useEditableOrder(orderNumber);
  return (
    <div className="space-y-4">
      <OrderLookup key={orderNumber ?? ""} initial={orderNumber ?? ""} />
      {orderNumber === null ? (
        <p className="text-sm text-muted-foreground">Enter an order number, or open an order and choose Edit. Orders can be edited until they have a label.</p>
      ) : order.error ? (
        <p className="rounded-md border border-destructive/30 bg-destructive/10 px-3 py-2 text-sm text-destructive">{order.error.message}</p>
      ) : !order.data ? (
        <div className="h-96 animate-pulse rounded-lg border bg-muted/40" aria-busy="true" />
      ) : (
        <>
          <div className="flex flex-wrap items-center gap-x-3 gap-y-2 text-sm">
            <Link href={`/admin/orders/${order.data.orderNumber}`} className="font-mono font-medium hover:text-primary hover:underline">
              {order.data.orderNumber}
            </Link>
            <AdminBadge tone={manualOrderStatusLabels[order.data.status].tone}>{manualOrderStatusLabels[order.data.status].label}</AdminBadge>
            <span className="text-muted-foreground">
              {order.data.customer ? `${order.data.customer.name ?? order.data.customer.email} · ` : "No account · "}
              {paymentMethodLabels[order.data.paymentMethod]}
            </span>
          </div>
          {order.data.lockedReason ? (
            <p className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md border border-destructive/30 bg-destructive/10 px-3 py-2 text-sm text-destructive">
              {order.data.lockedReason}
              <Link href={`/admin/orders/${order.data.orderNumber}`} className="font-medium underline underline-offset-2">
                Open the order
              </Link>
            </p>
          ) : (
            <>
              {order.data.status === "PENDING" && !order.data.onlinePayment ? <MarkPaid order={order.data} /> : null}
              <ManualOrderForm key={order.data.orderNumber} order={order.data} />
            </>
          )}
        </>
      )}
    </div>
  );
}
