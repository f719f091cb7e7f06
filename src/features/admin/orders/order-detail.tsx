"use client";

import { useConfirm } from "@/components/confirm-dialog";
import { Decimal } from "decimal.js";
import { Ban, Download, FileText, ImageOff, PackageCheck, Pencil, Receipt, Tag, Truck, X } from "lucide-react";
import Link from "next/link";
import { useEffect, useState } from "react";
import { AdminBadge } from "@/components/ui/admin-badge";
import { AdminCard, AdminCardHeader } from "@/components/ui/admin-card";
import { Button } from "@/components/ui/button";
import type { OrderStatus } from "@/lib/enums";
import { paymentMethodLabels, shippingMethodLabels } from "@/lib/labels";
import { formatEuro } from "@/lib/money";
import type { AdminOrder, StaffOrderStatus } from "@/server/orders/admin-schemas";
import { customerPath } from "../account/customer-badges";
import { printUrl } from "../fulfilment/print-url";
import { ShippingCard } from "../fulfilment/shipping-card";
import { CardField } from "../kit/card-field";
import { formatDateTime, formatPieces } from "../kit/format";
import { OrderMargin } from "../margins/order-margin";
import { RefundPanel } from "../refunds/refund-panel";
import { useRefundProposal } from "../refunds/queries";
import { cancelQuestion } from "./cancel-question";
import { MarketplaceRequestsCard } from "./marketplace-requests-card";
import { useOrderActions } from "./order-actions";
import { AdminOrderStatusBadge, OrderStandingBadges } from "./order-status";
import { OversoldNotice } from "./oversold-notice";
import { OrderTimeline } from "./order-timeline";
import { useAdminOrder } from "./queries";

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

function Items({ order }: { order: AdminOrder }) {
  const { totals } = order;
  return (
    <AdminCard>
      <AdminCardHeader title="Items" description={formatPieces(order.items.reduce((sum, item) => sum + item.quantity, 0))} />
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
        <CardField label="Items">{formatEuro(totals.items)}</CardField>
        {totals.discount.isZero() ? null : <CardField label="Discount">−{formatEuro(totals.discount)}</CardField>}
        {order.shipping.method === "COLLECTED" ? (
          <CardField label="Collected in the shop">no shipping</CardField>
        ) : (
          <CardField label={`Shipping (${shippingMethodLabels[order.shipping.method]})`}>{formatEuro(totals.shipping)}</CardField>
        )}
        {totals.surcharge.isZero() ? null : <CardField label="Insurance surcharge">{formatEuro(totals.surcharge)}</CardField>}
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
      <AdminCardHeader
        title="Customer"
        description={order.account ? "Has an account" : "Guest"}
        actions={
          order.account ? (
            <Link href={customerPath(order.account.userId)} className="text-xs text-primary hover:underline">
              Customer page
            </Link>
          ) : null
        }
      />
      <div className="space-y-1 px-4 py-3 text-sm">
        <p className="font-medium">
          {contact.firstName} {contact.lastName}
        </p>
        {contact.companyName ? <p>{contact.companyName}</p> : null}
        {order.email ? (
          <p>
            <a href={`mailto:${order.email}`} className="text-primary hover:underline">
              {order.email}
            </a>
          </p>
        ) : null}
        {contact.phoneNumber ? (
          <p>
            <a href={`tel:${contact.phoneNumber.replace(/[^+\d]/g, "")}`} className="hover:underline">
              {contact.phoneNumber}
            </a>
          </p>
        ) : null}
        {order.account && order.account.email !== order.email ? <p className="text-xs text-muted-foreground">Account: {order.account.name ?? order.account.email}</p> : null}
        <div className="mt-3 border-t pt-3">
          {order.shipping.method === "COLLECTED" ? (
            <p className="font-medium">
              Collected in the shop{order.shippedAt ? ` on ${formatDateTime(order.shippedAt)}` : ""}
            </p>
          ) : (
            <>
              <p className="mb-1 text-[11px] font-semibold tracking-wide text-muted-foreground uppercase">Ships to</p>
              <p>{order.address.name}</p>
              {order.address.lines.map((line) => (
                <p key={line}>{line}</p>
              ))}
            </>
          )}
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
        <CardField label="Method">{paymentMethodLabels[order.payment.method]}</CardField>
        <CardField label="Charged">{formatEuro(order.totals.total)}</CardField>
        {new Decimal(order.refundedTotal).greaterThan(0) ? <CardField label="Refunded">−{formatEuro(order.refundedTotal)}</CardField> : null}
        <CardField label="Provider fees">{order.payment.providerFees ? formatEuro(order.payment.providerFees) : "—"}</CardField>
        <CardField label="Payment id">{order.payment.externalPaymentId ? <span className="font-mono text-xs">{order.payment.externalPaymentId}</span> : "—"}</CardField>
        <CardField label="Paid">{order.soldAt ? formatDateTime(order.soldAt) : "Not yet"}</CardField>
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
  const [confirm, confirmDialog] = useConfirm();
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
  const ask = (title: string, description: string, confirmLabel: string, action: () => void) => async () => {
    if (await confirm({ title, description, confirmLabel, destructive: true })) action();
  };

  return (
    <div className="space-y-4">
      {confirmDialog}
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div className="space-y-1">
          <div className="flex flex-wrap items-center gap-2">
            <h2 className="font-serif text-2xl font-semibold">{order.orderNumber}</h2>
            <AdminOrderStatusBadge status={order.status} />
            <OrderStandingBadges standing={order.standing} />
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
          {order.shipping.method === "COLLECTED" ? null : (
            // A counter sale left with its buyer: there is no parcel to pack.
            <Button size="sm" variant="outline" asChild>
              <a href={printUrl("packing-slips", ids)} target="_blank" rel="noreferrer">
                <FileText /> Packing slip
              </a>
            </Button>
          )}
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
              onClick={ask(`Void the label ${order.shipping.trackingNumber}?`, "The carrier cancels it and the order goes back to Ready to Ship.", "Void label", () => actions.voidLabel(order.orderId))}
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
              onClick={ask("Cancel the order?", cancelQuestion(order, refundProposal.data), "Cancel order", () => actions.cancel(order.orderNumber))}
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
          {order.marketplace ? <MarketplaceRequestsCard orderNumber={order.orderNumber} /> : null}
          <RefundPanel orderNumber={order.orderNumber} />
          <OrderTimeline entries={order.timeline} />
        </div>
        <div className="space-y-4">
          <Customer order={order} />
          <ShippingCard order={order} waiting={waiting} />
          <Payment order={order} />
          <OrderMargin orderNumber={order.orderNumber} />
        </div>
      </div>
    </div>
  );
}
