import { Decimal } from "decimal.js";
import Link from "next/link";
import type { ReactNode } from "react";
import { formatShippingDay, paymentMethodLabels, shippingMethodLabels } from "@/lib/labels";
import { formatEuro } from "@/lib/money";
import { carrierNames, type CustomerRefund, type OrderView } from "@/server/orders/schemas";

// A moment as the shop's customers read it: the day in the shop's time zone, where parcels leave from.
const shopDay = new Intl.DateTimeFormat("en-GB", { weekday: "long", day: "numeric", month: "long", timeZone: "Europe/Amsterdam" });

const refundDay = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", timeZone: "Europe/Amsterdam" });
const refundDayWithYear = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "Europe/Amsterdam" });

/** What a refund gave back, in the same words for the customer and for staff: "1 × Seiko 5 strap", "Shipping", "Goodwill". */
export function refundSubject(refund: Pick<CustomerRefund, "kind" | "productName" | "quantity">): string {
  if (refund.kind === "SHIPPING") return "Shipping";
  if (refund.kind === "GOODWILL") return "Goodwill";
  return `${refund.quantity ?? 1} × ${refund.productName ?? "Item"}`;
}

/** Where a refund stands, in the customer's words: PENDING while the provider pays it out, then REFUNDED. */
function refundState(refund: CustomerRefund): string {
  if (refund.status !== "REFUNDED") return "Being refunded";
  const day = refund.settledAt ?? refund.createdAt;
  return `Refunded on ${(day.getFullYear() === new Date().getFullYear() ? refundDay : refundDayWithYear).format(day)}`;
}

function Refunds({ order }: { order: OrderView }) {
  return (
    <section aria-labelledby="refunds" className="mt-5 border-t pt-4">
      <h3 id="refunds" className="text-xs font-semibold tracking-wider text-muted-foreground uppercase">
        Refunds
      </h3>
      <ul className="mt-1 divide-y">
        {order.refunds.map((refund) => (
          <li key={refund.id} className="flex justify-between gap-4 py-2.5 text-sm">
            <div>
              <p>{refundSubject(refund)}</p>
              <p className="text-xs text-muted-foreground">{refundState(refund)}</p>
            </div>
            <span className="font-serif font-semibold tabular-nums">−{formatEuro(refund.amount)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Row({ label, value, strong = false }: { label: string; value: string; strong?: boolean }) {
  return (
    <div className={strong ? "flex justify-between gap-4 border-t pt-2 font-semibold" : "flex justify-between gap-4 text-sm"}>
      <dt className={strong ? "" : "text-muted-foreground"}>{label}</dt>
      <dd className={strong ? "font-serif text-lg tabular-nums" : "tabular-nums"}>{value}</dd>
    </div>
  );
}

function Card({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-xl border bg-card p-5 text-sm">
      <h2 id={id} className="mb-2 text-xs font-semibold tracking-wider text-muted-foreground uppercase">
        {title}
      </h2>
      {children}
    </section>
  );
}

/**
 * An order as the customer sees it, on the confirmation page and in their order history: what was ordered and its
 * totals, where it goes, and how it ships and is paid. `heading` opens the items card.
 */
export function OrderOverview({ order, heading }: { order: OrderView; heading?: ReactNode }) {
  const { totals, shipping } = order;
  const method = shippingMethodLabels[shipping.method];
  const settled = order.status !== "PENDING" && order.status !== "CANCELLED";
  const underway = order.status !== "CANCELLED";
  // A counter sale: bought and taken along in the shop, so nothing ships, nobody is expected, and there is no address.
  const collected = shipping.method === "COLLECTED";
  return (
    <>
      <section aria-label="Ordered" className="rounded-xl border bg-card p-5 sm:p-6">
        {heading}
        {/* A rule above the lines only under a heading: at the top of the card it would look like an empty line. */}
        <ul className={heading ? "divide-y border-y" : "-mt-3 divide-y border-b"}>
          {order.items.map((item) => (
            <li key={item.productId} className="flex justify-between gap-4 py-3 text-sm">
              <Link href={`/product/${item.productId}`} className="hover:underline">
                {item.quantity} × {item.name}
              </Link>
              <span className="font-serif font-semibold tabular-nums">{formatEuro(item.paid)}</span>
            </li>
          ))}
        </ul>
        <dl className="mt-4 ml-auto flex max-w-xs flex-col gap-1.5">
          <Row label="Items" value={formatEuro(totals.items)} />
          {totals.discount.isZero() ? null : <Row label="Discount" value={`−${formatEuro(totals.discount)}`} />}
          {collected ? null : <Row label={`Shipping: ${method}`} value={formatEuro(totals.shipping)} />}
          {totals.surcharge.isZero() ? null : <Row label="Insurance surcharge" value={formatEuro(totals.surcharge)} />}
          <Row label={settled ? "Total paid" : "Total"} value={formatEuro(totals.total)} strong />
          {new Decimal(order.refundedTotal).greaterThan(0) ? <Row label="Refunded" value={`−${formatEuro(order.refundedTotal)}`} /> : null}
        </dl>
        {order.refunds.length ? <Refunds order={order} /> : null}
      </section>

      <div className="grid gap-4 sm:grid-cols-2">
        <Card id="ships-to" title={collected ? "Bought by" : "Ships to"}>
          <p className="font-medium">{order.address.name}</p>
          {order.address.lines.map((line) => (
            <p key={line}>{line}</p>
          ))}
        </Card>
        <Card id="delivery" title={collected ? "Collection and payment" : "Delivery and payment"}>
          <p className="font-medium">
            {method}
            {shipping.carrier ? ` with ${carrierNames[shipping.carrier]}` : ""}
          </p>
          {order.deliveredAt ? <p className="font-medium">{collected ? "Collected" : "Delivered"} on {shopDay.format(order.deliveredAt)}</p> : null}
          {order.shippedAt && !order.deliveredAt ? <p className="font-medium">Shipped on {shopDay.format(order.shippedAt)}</p> : null}
          {shipping.trackingNumber ? (
            <p>
              Tracking:{" "}
              {shipping.trackingUrl ? (
                <a href={shipping.trackingUrl} target="_blank" rel="noreferrer" className="font-medium text-primary underline-offset-4 hover:underline">
                  {shipping.trackingNumber}
                </a>
              ) : (
                shipping.trackingNumber
              )}
            </p>
          ) : null}
          {shipping.estimatedShippingDate && underway && !order.shippedAt ? <p>Leaves our workshop on {formatShippingDay(shipping.estimatedShippingDate)}</p> : null}
          {shipping.estimatedDeliveryDate && underway && !order.deliveredAt ? <p>Expected {formatShippingDay(shipping.estimatedDeliveryDate)}</p> : null}
          <p className="mt-2 text-muted-foreground">Payment method: {paymentMethodLabels[order.paymentMethod]}</p>
        </Card>
      </div>
    </>
  );
}
