"use client";

import { Check, ExternalLink, Loader2, X } from "lucide-react";
import { AdminCard, AdminCardHeader } from "@/components/ui/admin-card";
import { shippingMethodLabels } from "@/lib/labels";
import { formatEuro } from "@/lib/money";
import type { AdminOrder, OrderEmailState } from "@/server/orders/admin-schemas";
import { carrierNames } from "@/server/orders/schemas";
import { CardField } from "../kit/card-field";
import { formatDate, formatDateTime } from "../kit/format";

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

/**
 * The order page's shipping card: method, carrier, dates, the tracking number (or the label still being bought,
 * `waiting`), the label and the order's e-mails.
 */
export function ShippingCard({ order, waiting }: { order: AdminOrder; waiting: boolean }) {
  const { shipping, label } = order;
  return (
    <AdminCard>
      <AdminCardHeader title="Shipping" />
      <dl className="px-4 py-3">
        <CardField label="Method">{shippingMethodLabels[shipping.method]}</CardField>
        <CardField label="Carrier">{shipping.carrier ? `${carrierNames[shipping.carrier]}${label.carrierProduct ? ` (${label.carrierProduct})` : ""}` : "—"}</CardField>
        <CardField label="Ships">{shipping.estimatedShippingDate ? formatDate(shipping.estimatedShippingDate) : "—"}</CardField>
        <CardField label="Arrives">{shipping.estimatedDeliveryDate ? formatDate(shipping.estimatedDeliveryDate) : "—"}</CardField>
        <CardField label="Tracking">
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
        </CardField>
        {label.trackingStatus ? <CardField label="Carrier says">{label.trackingStatus}</CardField> : null}
        {label.createdAt ? <CardField label="Label">{`${formatDateTime(label.createdAt)}${label.cost ? ` · ${formatEuro(label.cost)}` : ""}`}</CardField> : null}
        {order.totalWeightGrams ? <CardField label="Weight">{`${order.totalWeightGrams} g`}</CardField> : null}
        {order.shippedAt ? <CardField label="Shipped">{formatDateTime(order.shippedAt)}</CardField> : null}
        {order.deliveredAt ? <CardField label="Delivered">{formatDateTime(order.deliveredAt)}</CardField> : null}
        <CardField label="Confirmation e-mail">
          <EmailState email={order.emails.confirmation} />
        </CardField>
        <CardField label="Shipping e-mail">
          <EmailState email={order.emails.shipping} />
        </CardField>
      </dl>
    </AdminCard>
  );
}
