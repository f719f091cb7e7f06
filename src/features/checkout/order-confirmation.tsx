import { CheckCircle2, Clock, XCircle } from "lucide-react";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import { OrderStatusBadge } from "@/features/account/order-status";
import { formatShippingDay, paymentMethodLabels, shippingMethodLabels } from "@/lib/labels";
import { formatEuro } from "@/lib/money";
import type { OrderConfirmation } from "@/server/checkout/schemas";
import { PaymentStatusWatcher } from "./payment-status-watcher";
import { PutBackInCart } from "./put-back-in-cart";

function Row({ label, value, strong = false }: { label: string; value: string; strong?: boolean }) {
  return (
    <div className={strong ? "flex justify-between gap-4 border-t pt-2 font-semibold" : "flex justify-between gap-4 text-sm"}>
      <dt className={strong ? "" : "text-muted-foreground"}>{label}</dt>
      <dd className={strong ? "font-serif text-lg tabular-nums" : "tabular-nums"}>{value}</dd>
    </div>
  );
}

function Heading({ confirmation: c }: { confirmation: OrderConfirmation }) {
  if (c.status === "PENDING") {
    return (
      <>
        <Clock className="size-10 text-primary" aria-hidden />
        <h1 className="font-serif text-3xl font-semibold">We are waiting for your payment</h1>
        <p className="text-muted-foreground">
          Order <strong className="text-foreground">{c.orderNumber}</strong> is placed and its pieces are held for you. This page updates as soon as the payment
          provider confirms your payment.
        </p>
        <PaymentStatusWatcher />
      </>
    );
  }
  if (c.status === "CANCELLED") {
    return (
      <>
        <XCircle className="size-10 text-destructive" aria-hidden />
        <h1 className="font-serif text-3xl font-semibold">Your payment did not go through</h1>
        <p className="text-muted-foreground">
          Order <strong className="text-foreground">{c.orderNumber}</strong> is cancelled and nothing was charged. The pieces are back in the shop, so you can
          order them again.
        </p>
        <PutBackInCart items={c.items.map(({ productId, name, quantity }) => ({ productId, name, quantity }))} />
      </>
    );
  }
  return (
    <>
      <CheckCircle2 className="size-10 text-primary" aria-hidden />
      <h1 className="font-serif text-3xl font-semibold">Thank you for your order</h1>
      <p className="text-muted-foreground">
        Order <strong className="text-foreground">{c.orderNumber}</strong> is paid. We have sent a confirmation to <strong className="text-foreground">{c.email}</strong>{" "}
        and will let you know when it is on its way.
      </p>
    </>
  );
}

/** The confirmation page's content: how the order stands, what was ordered, where and how it goes. */
export function OrderConfirmationView({ confirmation: c, signedIn }: { confirmation: OrderConfirmation; signedIn: boolean }) {
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-8 px-4 pt-10 pb-28 sm:px-6 lg:pb-16" data-testid="order-confirmation" data-status={c.status}>
      <header className="flex flex-col items-center gap-3 text-center">
        <Heading confirmation={c} />
      </header>

      <section aria-labelledby="ordered" className="rounded-xl border bg-card p-5 sm:p-6">
        <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
          <h2 id="ordered" className="font-serif text-xl font-semibold">
            Order {c.orderNumber}
          </h2>
          <OrderStatusBadge status={c.status} />
        </div>
        <ul className="divide-y border-y">
          {c.items.map((item) => (
            <li key={item.productId} className="flex justify-between gap-4 py-3 text-sm">
              <Link href={`/product/${item.productId}`} className="hover:underline">
                {item.quantity} × {item.name}
              </Link>
              <span className="font-serif font-semibold tabular-nums">{formatEuro(item.totalPrice)}</span>
            </li>
          ))}
        </ul>
        <dl className="mt-4 ml-auto flex max-w-xs flex-col gap-1.5">
          <Row label="Items" value={formatEuro(c.itemTotal)} />
          {c.discount.isZero() ? null : <Row label="Discount" value={`−${formatEuro(c.discount)}`} />}
          <Row label={`Shipping: ${shippingMethodLabels[c.shippingMethod]}`} value={formatEuro(c.shipping.minus(c.surcharge))} />
          {c.surcharge.isZero() ? null : <Row label="Insurance surcharge" value={formatEuro(c.surcharge)} />}
          <Row label={c.status === "PENDING" || c.status === "CANCELLED" ? "Total" : "Total paid"} value={formatEuro(c.total)} strong />
        </dl>
      </section>

      <div className="grid gap-4 sm:grid-cols-2">
        <section aria-labelledby="ships-to" className="rounded-xl border bg-card p-5 text-sm">
          <h2 id="ships-to" className="mb-2 text-xs font-semibold tracking-wider text-muted-foreground uppercase">
            Ships to
          </h2>
          <p className="font-medium">{c.address.name}</p>
          {c.address.lines.map((line) => (
            <p key={line}>{line}</p>
          ))}
        </section>
        <section aria-labelledby="delivery" className="rounded-xl border bg-card p-5 text-sm">
          <h2 id="delivery" className="mb-2 text-xs font-semibold tracking-wider text-muted-foreground uppercase">
            Delivery and payment
          </h2>
          <p className="font-medium">{shippingMethodLabels[c.shippingMethod]}</p>
          {c.estimatedShippingDate && c.status !== "CANCELLED" ? <p>Leaves our workshop on {formatShippingDay(c.estimatedShippingDate)}</p> : null}
          {c.estimatedDeliveryDate && c.status !== "CANCELLED" ? <p>Expected {formatShippingDay(c.estimatedDeliveryDate)}</p> : null}
          <p className="mt-2 text-muted-foreground">Payment method: {paymentMethodLabels[c.paymentMethod as keyof typeof paymentMethodLabels] ?? c.paymentMethod}</p>
        </section>
      </div>

      <div className="flex flex-wrap justify-center gap-3">
        {signedIn ? (
          <Button asChild variant="outline">
            <Link href={`/account/orders/${c.orderId}`}>See it in your orders</Link>
          </Button>
        ) : null}
        <Button asChild variant={c.status === "CANCELLED" ? "outline" : "default"}>
          <Link href="/">Continue shopping</Link>
        </Button>
      </div>
    </div>
  );
}
