import { CheckCircle2, Clock, Truck, XCircle } from "lucide-react";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import { OrderOverview } from "@/features/orders/order-overview";
import { OrderStatusBadge } from "@/features/orders/order-status";
import type { OrderView } from "@/server/orders/schemas";
import { PaymentStatusWatcher } from "./payment-status-watcher";
import { PutBackInCart } from "./put-back-in-cart";

function Heading({ order }: { order: OrderView }) {
  if (order.status === "PENDING") {
    return (
      <>
        <Clock className="size-10 text-primary" aria-hidden />
        <h1 className="font-serif text-3xl font-semibold">We are waiting for your payment</h1>
        <p className="text-muted-foreground">
          Order <strong className="text-foreground">{order.orderNumber}</strong> is placed and its pieces are held for you. This page updates as soon as the payment
          provider confirms your payment.
        </p>
        <PaymentStatusWatcher />
      </>
    );
  }
  if (order.status === "CANCELLED") {
    return (
      <>
        <XCircle className="size-10 text-destructive" aria-hidden />
        <h1 className="font-serif text-3xl font-semibold">Your payment did not go through</h1>
        <p className="text-muted-foreground">
          Order <strong className="text-foreground">{order.orderNumber}</strong> is cancelled and nothing was charged. The pieces are back in the shop, so you can
          order them again.
        </p>
        <PutBackInCart items={order.items.map(({ productId, name, quantity }) => ({ productId, name, quantity }))} />
      </>
    );
  }
  if (order.status === "SHIPPED") {
    return (
      <>
        <Truck className="size-10 text-primary" aria-hidden />
        <h1 className="font-serif text-3xl font-semibold">Your order is on its way</h1>
        <p className="text-muted-foreground">
          Order <strong className="text-foreground">{order.orderNumber}</strong> has left our workshop. You can follow the parcel with the tracking number below.
        </p>
      </>
    );
  }
  return (
    <>
      <CheckCircle2 className="size-10 text-primary" aria-hidden />
      <h1 className="font-serif text-3xl font-semibold">Thank you for your order</h1>
      <p className="text-muted-foreground">
        Order <strong className="text-foreground">{order.orderNumber}</strong> is paid. We have sent a confirmation to <strong className="text-foreground">{order.email}</strong>{" "}
        and will let you know when it is on its way.
      </p>
    </>
  );
}

/** The confirmation page's content: how the order stands, what was ordered, where and how it goes. */
export function OrderConfirmationView({ order, signedIn }: { order: OrderView; signedIn: boolean }) {
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-8 px-4 pt-10 pb-28 sm:px-6 lg:pb-16" data-testid="order-confirmation" data-status={order.status}>
      <header className="flex flex-col items-center gap-3 text-center">
        <Heading order={order} />
      </header>

      <OrderOverview
        order={order}
        heading={
          <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
            <h2 className="font-serif text-xl font-semibold">Order {order.orderNumber}</h2>
            <OrderStatusBadge status={order.status} />
          </div>
        }
      />

      <div className="flex flex-wrap justify-center gap-3">
        {signedIn ? (
          <Button asChild variant="outline">
            <Link href={`/account/orders/${order.orderId}`}>See it in your orders</Link>
          </Button>
        ) : null}
        <Button asChild variant={order.status === "CANCELLED" ? "outline" : "default"}>
          <Link href="/">Continue shopping</Link>
        </Button>
      </div>
    </div>
  );
}
