import { CheckCircle2, Clock, Truck, XCircle } from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { OrderOverview } from "@/features/orders/order-overview";
import { OrderStatusBadge } from "@/features/orders/order-status";
import type { OrderView } from "@/server/orders/schemas";
import { PaymentStatusWatcher } from "./payment-status-watcher";
import { PutBackInCart } from "./put-back-in-cart";

/** One way the order can stand: its icon, what it means for the customer, and what they can do about it. */
function StatusHeading({ icon, title, children, action }: { icon: ReactNode; title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <>
      {icon}
      <h1 className="font-serif text-3xl font-semibold">{title}</h1>
      <p className="text-muted-foreground">{children}</p>
      {action}
    </>
  );
}

function Heading({ order }: { order: OrderView }) {
  const orderNumber = <strong className="text-foreground">{order.orderNumber}</strong>;
  if (order.status === "PENDING") {
    return (
      <StatusHeading icon={<Clock className="size-10 text-primary" aria-hidden />} title="We are waiting for your payment" action={<PaymentStatusWatcher />}>
        Order {orderNumber} is placed and its pieces are held for you. This page updates as soon as the payment provider confirms your payment.
      </StatusHeading>
    );
  }
  if (order.status === "CANCELLED") {
    return (
      <StatusHeading
        icon={<XCircle className="size-10 text-destructive" aria-hidden />}
        title="Your payment did not go through"
        action={<PutBackInCart items={order.items.map(({ productId, name, quantity }) => ({ productId, name, quantity }))} />}
      >
        Order {orderNumber} is cancelled and nothing was charged. The pieces are back in the shop, so you can order them again.
      </StatusHeading>
    );
  }
  if (order.status === "SHIPPED") {
    return (
      <StatusHeading icon={<Truck className="size-10 text-primary" aria-hidden />} title="Your order is on its way">
        Order {orderNumber} has left our workshop. You can follow the parcel with the tracking number below.
      </StatusHeading>
    );
  }
  return (
    <StatusHeading icon={<CheckCircle2 className="size-10 text-primary" aria-hidden />} title="Thank you for your order">
      Order {orderNumber} is paid. We have sent a confirmation to <strong className="text-foreground">{order.email}</strong> and will let you know when it is on its way.
    </StatusHeading>
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
