"use client";

import { Decimal } from "decimal.js";
import { Ban, Check, Download, ExternalLink, FileText, ImageOff, Loader2, PackageCheck, Pencil, Receipt, Tag, Truck, X } from "lucide-react";
import Link from "next/link";
import { useEffect, useState, type ReactNode } from "react";
import { AdminBadge } from "@/components/ui/admin-badge";
import { AdminCard, AdminCardHeader } from "@/components/ui/admin-card";
import { Button } from "@/components/ui/button";
import type { OrderStatus } from "@/lib/enums";
import { cn } from "@/lib/utils";
import { paymentMethodLabels, shippingMethodLabels } from "@/lib/labels";
import type { AdminOrder, OrderEmailState, StaffOrderStatus } from "@/server/orders/admin-schemas";
import { carrierNames } from "@/server/orders/schemas";
import { formatEuro } from "@/lib/money";
import { formatDate, formatDateTime, formatPeso } from "../kit/format";
import { RefundPanel } from "../refunds/refund-panel";
import { useRefundProposal } from "../refunds/queries";
import { cancelQuestion } from "./cancel-question";
import { useOrderActions } from "./order-actions";
import { AdminOrderStatusBadge, printUrl } from "./order-status";
import { OversoldNotice } from "./oversold-notice";
import { OrderTimeline } from "./order-timeline";
import { useAdminOrder, useOrderMargin } from "./queries";

/** How long the page keeps looking for a label it asked for: the create-label job's retries are done well before. */
const LABEL_WAIT_MS = 2 * 60_000;

/** What each status button says; cancelling is the one that asks first. */
const actionLabels: Record<StaffOrderStatus, string> = {
  PAID_READY_TO_SHIP: "Back to Ready to Ship",
  PAID_FUTURE_SHIPMENT: "Move to Future Shipments",
  PROCESSED: "Mark processed",
  CANCELLED: "Cancel order",
};

/** Statuses in which an order waits for its label. */
const labelStatuses: readonly OrderStatus[] = ["PAID_READY_TO_SHIP", "PAID_FUTURE_SHIPMENT"];

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-4 py-1 text-sm">
      <dt className="min-w-0 text-muted-foreground">{label}</dt>
      <dd className="max-w-[65%] shrink-0 text-right break-words tabular-nums">{children}</dd>
    </div>
  );
}

function Picture({ src, alt }: { src: string; alt: string }) {
  const [failed, setFailed] = useState(false);
  if (failed) {
    return (
      <span className="flex size-14 shrink-0 items-center justify-center rounded bg-muted text-muted-foreground">
        <ImageOff className="size-5" aria-label={`No picture of ${alt}`} />
      </span>
    );
  }
  // eslint-disable-next-line @next/next/no-img-element -- a few product thumbnails from storage; the optimiser would only add latency
  return <img src={src} alt={alt} onError={() => setFailed(true)} className="size-14 shrink-0 rounded bg-muted object-cover ring-1 ring-border" />;
}

/** Where one of the order's e-mails is: sent, on its way (tried again after a failure, saying why), given up, or none. */
function EmailState({ email }: { email: OrderEmailState }) {
  if (email.state === "sent") {
    return (
      <span className="inline-flex items-center gap-1 text-emerald-700 dark:text-emerald-400">
        <Check className="size-3.5" /> Sent
      </span>
    );
  }
  if (email.state === "queued") {
    return (
      <span className="inline-flex flex-col text-muted-foreground">
        <span className="inline-flex items-center gap-1">
          <Loader2 className="size-3.5 animate-spin" /> {email.attempts > 0 ? `Retrying (${email.attempts} ${email.attempts === 1 ? "try" : "tries"})` : "Sending…"}
        </span>
        {email.lastError ? <span className="text-xs">{email.lastError}</span> : null}
      </span>
    );
  }
  if (email.state === "failed") {
    return (
      <span className="inline-flex flex-col text-destructive">
        <span className="inline-flex items-center gap-1">
          <X className="size-3.5" /> Not sent: gave up after {email.attempts} tries
        </span>
        {email.lastError ? <span className="text-xs">{email.lastError}</span> : null}
      </span>
    );
  }
  return (
    <span className="inline-flex items-center gap-1 text-muted-foreground">
      <X className="size-3.5" /> Not sent
    </span>
  );
}

const pieces = (count: number) => `${count} piece${count === 1 ? "" : "s"}`;

function Items({ order }: { order: AdminOrder }) {
  const { totals } = order;
  return (
    <AdminCard>
      <AdminCardHeader title="Items" description={pieces(order.items.reduce((sum, item) => sum + item.quantity, 0))} />
      <ul className="divide-y">
        {order.items.map((item) => (
          <li key={item.productId} className="flex items-center gap-3 px-4 py-3">
            <Picture src={item.image} alt={item.name} />
            <div className="min-w-0 flex-1">
              <Link href={`/admin/products/edit?id=${item.productId}`} className="line-clamp-2 text-sm font-medium hover:text-primary hover:underline">
                {item.name}
              </Link>
              <p className="text-xs text-muted-foreground">
                #{item.productId} · {item.quantity} × {formatEuro(item.paid.plus(item.discount).dividedBy(item.quantity))}
                {item.discount.isZero() ? "" : ` · −${formatEuro(item.discount)}`}
              </p>
              {item.priceOverrideReason ? <p className="text-xs text-amber-700 dark:text-amber-300">Price set by staff: {item.priceOverrideReason}</p> : null}
            </div>
            <span className="text-sm font-semibold tabular-nums">{formatEuro(item.paid)}</span>
          </li>
        ))}
      </ul>
      <dl className="ml-auto max-w-xs border-t px-4 py-3">
        <Field label="Items">{formatEuro(totals.items)}</Field>
        {totals.discount.isZero() ? null : <Field label="Discount">−{formatEuro(totals.discount)}</Field>}
        <Field label={`Shipping (${shippingMethodLabels[order.shipping.method]})`}>{formatEuro(totals.shipping)}</Field>
        {totals.surcharge.isZero() ? null : <Field label="Insurance surcharge">{formatEuro(totals.surcharge)}</Field>}
        <div className="mt-1 flex justify-between gap-4 border-t pt-2 font-semibold">
          <dt>Total</dt>
          <dd className="tabular-nums">{formatEuro(totals.total)}</dd>
        </div>
      </dl>
    </AdminCard>
  );
}

function Customer({ order }: { order: AdminOrder }) {
  const { contact } = order;
  return (
    <AdminCard>
      <AdminCardHeader title="Customer" description={order.account ? "Has an account" : "Guest"} />
      <div className="space-y-1 px-4 py-3 text-sm">
        <p className="font-medium">
          {contact.firstName} {contact.lastName}
        </p>
        {contact.companyName ? <p>{contact.companyName}</p> : null}
        <p>
          <a href={`mailto:${order.email}`} className="text-primary hover:underline">
            {order.email}
          </a>
        </p>
        {contact.phoneNumber ? (
          <p>
            <a href={`tel:${contact.phoneNumber.replace(/[^+\d]/g, "")}`} className="hover:underline">
              {contact.phoneNumber}
            </a>
          </p>
        ) : null}
        {order.account && order.account.email !== order.email ? <p className="text-xs text-muted-foreground">Account: {order.account.name ?? order.account.email}</p> : null}
        <div className="mt-3 border-t pt-3">
          <p className="mb-1 text-[11px] font-semibold tracking-wide text-muted-foreground uppercase">Ships to</p>
          <p>{order.address.name}</p>
          {order.address.lines.map((line) => (
            <p key={line}>{line}</p>
          ))}
          {contact.referenceLine ? <p className="text-xs text-muted-foreground">Reference: {contact.referenceLine}</p> : null}
        </div>
      </div>
    </AdminCard>
  );
}

function Payment({ order }: { order: AdminOrder }) {
  return (
    <AdminCard>
      <AdminCardHeader title="Payment" />
      <dl className="px-4 py-3">
        <Field label="Method">{paymentMethodLabels[order.payment.method]}</Field>
        <Field label="Charged">{formatEuro(order.totals.total)}</Field>
        {new Decimal(order.refundedTotal).greaterThan(0) ? <Field label="Refunded">−{formatEuro(order.refundedTotal)}</Field> : null}
        <Field label="Provider fees">{order.payment.providerFees ? formatEuro(order.payment.providerFees) : "—"}</Field>
        <Field label="Payment id">{order.payment.externalPaymentId ? <span className="font-mono text-xs">{order.payment.externalPaymentId}</span> : "—"}</Field>
        <Field label="Paid">{order.soldAt ? formatDateTime(order.soldAt) : "Not yet"}</Field>
      </dl>
    </AdminCard>
  );
}

/**
 * What the order earned: what the customer paid less the FIFO purchase cost of the pieces they kept, provider fees,
 * the label and refunds (`admin.margins.order`). Pieces sold with no purchase left to take them from are named, not
 * priced.
 */
function Margin({ orderNumber }: { orderNumber: string }) {
  const margin = useOrderMargin(orderNumber);
  const data = margin.data;
  return (
    <AdminCard>
      <AdminCardHeader title="Margin" description={data && !data.sold ? "The order sold nothing: it has no margin." : "Purchase cost first bought, first sold"} />
      {data?.sold ? (
        <dl className="px-4 py-3">
          <Field label="Paid">{formatEuro(data.paid)}</Field>
          <Field label="Purchase cost">
            <span title={formatPeso(data.purchaseCostPhp)}>−{formatEuro(data.purchaseCost)}</span>
          </Field>
          <Field label="Provider fees">−{formatEuro(data.providerFees)}</Field>
          <Field label="Label">−{formatEuro(data.labelCost)}</Field>
          <Field label="Refunds">−{formatEuro(data.refunds)}</Field>
          <Field label="Margin">
            <strong className={cn("font-semibold", data.margin?.isNegative() && "text-destructive")}>{data.margin ? formatEuro(data.margin) : "—"}</strong>
          </Field>
          {data.unknownCostPieces > 0 ? (
            <p className="pt-1 text-xs text-muted-foreground">
              {pieces(data.unknownCostPieces)} sold with no purchase left to cost them: the margin is higher than it will be.
            </p>
          ) : null}
        </dl>
      ) : margin.isError ? (
        <p className="px-4 py-3 text-sm text-muted-foreground">We could not work out the margin: {margin.error.message}</p>
      ) : null}
    </AdminCard>
  );
}

function Shipping({ order, waiting }: { order: AdminOrder; waiting: boolean }) {
  const { shipping, label } = order;
  return (
    <AdminCard>
      <AdminCardHeader title="Shipping" />
      <dl className="px-4 py-3">
        <Field label="Method">{shippingMethodLabels[shipping.method]}</Field>
        <Field label="Carrier">{shipping.carrier ? `${carrierNames[shipping.carrier]}${label.carrierProduct ? ` (${label.carrierProduct})` : ""}` : "—"}</Field>
        <Field label="Ships">{shipping.estimatedShippingDate ? formatDate(shipping.estimatedShippingDate) : "—"}</Field>
        <Field label="Arrives">{shipping.estimatedDeliveryDate ? formatDate(shipping.estimatedDeliveryDate) : "—"}</Field>
        <Field label="Tracking">
          {shipping.trackingNumber ? (
            shipping.trackingUrl ? (
              <a href={shipping.trackingUrl} target="_blank" rel="noreferrer" className="inline-flex items-center gap-1 font-mono text-xs text-primary hover:underline">
                {shipping.trackingNumber} <ExternalLink className="size-3" />
              </a>
            ) : (
              <span className="font-mono text-xs">{shipping.trackingNumber}</span>
            )
          ) : waiting ? (
            <span className="inline-flex items-center gap-1 text-muted-foreground">
              <Loader2 className="size-3.5 animate-spin" /> Label on its way…
            </span>
          ) : (
            "—"
          )}
        </Field>
        {label.trackingStatus ? <Field label="Carrier says">{label.trackingStatus}</Field> : null}
        {label.createdAt ? <Field label="Label">{`${formatDateTime(label.createdAt)}${label.cost ? ` · ${formatEuro(label.cost)}` : ""}`}</Field> : null}
        {order.totalWeightGrams ? <Field label="Weight">{`${order.totalWeightGrams} g`}</Field> : null}
        {order.shippedAt ? <Field label="Shipped">{formatDateTime(order.shippedAt)}</Field> : null}
        {order.deliveredAt ? <Field label="Delivered">{formatDateTime(order.deliveredAt)}</Field> : null}
        <Field label="Confirmation e-mail">
          <EmailState email={order.emails.confirmation} />
        </Field>
        <Field label="Shipping e-mail">
          <EmailState email={order.emails.shipping} />
        </Field>
      </dl>
    </AdminCard>
  );
}

/** The order's page: what was bought, by whom, paid how, shipped how, what staff can do next, and its story. */
export function OrderDetail({ orderNumber }: { orderNumber: string }) {
  // Set while a label asked for here is being bought: the page looks again every few seconds until it is in.
  const [awaitingLabel, setAwaitingLabel] = useState(false);
  const query = useAdminOrder(orderNumber, { awaitingLabel });
  const order = query.data;
  const actions = useOrderActions({ onLabels: () => setAwaitingLabel(true) });
  // The refund panel's proposal (one query, shared): the cancel's question names what goes back with it.
  const refundProposal = useRefundProposal(orderNumber);
  useEffect(() => {
    if (!awaitingLabel) return;
    const timer = setTimeout(() => setAwaitingLabel(false), LABEL_WAIT_MS);
    return () => clearTimeout(timer);
  }, [awaitingLabel]);
  const waiting = awaitingLabel && !order?.shipping.trackingNumber;

  if (query.isPending) return <div className="h-96 animate-pulse rounded-lg bg-muted" aria-label="Loading the order" />;
  if (!order) {
    return (
      <AdminCard className="mx-auto max-w-md p-6 text-center">
        <p className="font-medium">{query.error?.message ?? `We cannot find order ${orderNumber}.`}</p>
        <Button asChild variant="outline" size="sm" className="mt-4">
          <Link href="/admin/orders/status/all">All orders</Link>
        </Button>
      </AdminCard>
    );
  }

  const ids = [order.orderId];
  const canCreateLabel = labelStatuses.includes(order.status) && !order.shipping.trackingNumber && !waiting;
  const canVoidLabel = order.shipping.trackingNumber !== null && order.status !== "SHIPPED";
  const canShip = order.status === "PROCESSED" && order.shipping.trackingNumber !== null;
  const editable = order.status !== "SHIPPED" && order.status !== "CANCELLED";
  const confirm = (question: string, action: () => void) => () => window.confirm(question) && action();

  return (
    <div className="space-y-4">
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div className="space-y-1">
          <div className="flex flex-wrap items-center gap-2">
            <h2 className="font-serif text-2xl font-semibold">{order.orderNumber}</h2>
            <AdminOrderStatusBadge status={order.status} />
            {order.shop === "EBAY" ? <AdminBadge tone="info">eBay{order.marketplace ? ` ${order.marketplace.orderId}` : ""}</AdminBadge> : null}
          </div>
          <p className="text-sm text-muted-foreground">
            Placed {formatDateTime(order.createdAt)}
            {order.soldAt ? ` · paid ${formatDateTime(order.soldAt)}` : ""}
            {order.invoiceNumber ? ` · invoice ${order.invoiceNumber}` : ""}
          </p>
        </div>
        <div className="flex flex-wrap gap-2" role="toolbar" aria-label="Order actions">
          {canCreateLabel ? (
            <Button size="sm" disabled={actions.pending} onClick={() => actions.createLabels(ids)}>
              <Tag /> Create label
            </Button>
          ) : null}
          {order.label.downloadUrl ? (
            <Button size="sm" variant="outline" asChild>
              <a href={order.label.downloadUrl}>
                <Download /> Download label
              </a>
            </Button>
          ) : null}
          {canShip ? (
            <Button size="sm" disabled={actions.pending} onClick={() => actions.markShipped(ids)}>
              <Truck /> Mark shipped
            </Button>
          ) : null}
          {order.actions
            .filter((to) => to !== "CANCELLED")
            .map((to) => (
              <Button key={to} size="sm" variant="outline" disabled={actions.pending} onClick={() => actions.transition(ids, to)}>
                {to === "PROCESSED" ? <PackageCheck /> : null}
                {actionLabels[to]}
              </Button>
            ))}
          <Button size="sm" variant="outline" asChild>
            <a href={printUrl("packing-slips", ids)} target="_blank" rel="noreferrer">
              <FileText /> Packing slip
            </a>
          </Button>
          <Button size="sm" variant="outline" disabled={actions.pending} onClick={() => actions.printInvoices(ids)}>
            <Receipt /> Invoice
          </Button>
          {editable ? (
            <Button size="sm" variant="ghost" asChild>
              <Link href={`/admin/orders/edit?order=${encodeURIComponent(order.orderNumber)}`}>
                <Pencil /> Edit
              </Link>
            </Button>
          ) : null}
          {canVoidLabel ? (
            <Button
              size="sm"
              variant="ghost"
              className="text-destructive hover:text-destructive"
              disabled={actions.pending}
              onClick={confirm(`Void the label ${order.shipping.trackingNumber}? The carrier cancels it and the order goes back to Ready to Ship.`, () => actions.voidLabel(order.orderId))}
            >
              <Ban /> Void label
            </Button>
          ) : null}
          {order.actions.includes("CANCELLED") ? (
            <Button
              size="sm"
              variant="ghost"
              className="text-destructive hover:text-destructive"
              disabled={actions.pending}
              onClick={confirm(cancelQuestion(order, refundProposal.data), () => actions.cancel(order.orderNumber))}
            >
              <X /> {actionLabels.CANCELLED}
            </Button>
          ) : null}
        </div>
      </header>
      {order.marketplace?.oversoldAt ? (
        <OversoldNotice orderNumber={order.orderNumber} oversoldAt={order.marketplace.oversoldAt} oversoldPieces={order.marketplace.oversoldPieces} />
      ) : null}

      <div className="grid gap-4 lg:grid-cols-3">
        <div className="space-y-4 lg:col-span-2">
          <Items order={order} />
          <RefundPanel orderNumber={order.orderNumber} />
          <OrderTimeline entries={order.timeline} />
        </div>
        <div className="space-y-4">
          <Customer order={order} />
          <Shipping order={order} waiting={waiting} />
          <Payment order={order} />
          <Margin orderNumber={order.orderNumber} />
        </div>
      </div>
    </div>
  );
}
