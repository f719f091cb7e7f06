import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { OrderStatusBadge } from "@/features/account/order-status";
import { formatEuro } from "@/lib/money";
import { getOrder } from "@/server/account/service";
import { requireSession } from "@/server/auth/require-session";
import { getDb } from "@/server/db/client";
import { AppError } from "@/server/errors";

export const metadata: Metadata = { title: "Order", robots: { index: false } };
export const dynamic = "force-dynamic";

const date = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric" });

export default async function OrderPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const session = await requireSession(`/account/orders/${id}`);
  const orderId = Number(id);
  if (!Number.isInteger(orderId) || orderId <= 0) notFound();
  const order = await getOrder(getDb(), session.user.id, orderId).catch((error: unknown) => {
    if (error instanceof AppError && error.code === "NOT_FOUND") notFound();
    throw error;
  });

  return (
    <section className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <Link href="/account/orders" className="text-sm text-muted-foreground hover:text-foreground">
            ← All orders
          </Link>
          <h1 className="font-serif text-2xl font-semibold">Order {order.orderNumber}</h1>
          <p className="text-sm text-muted-foreground">Placed on {date.format(order.createdAt)}</p>
        </div>
        <OrderStatusBadge status={order.status} />
      </div>
      <ul className="divide-y rounded-xl border bg-card">
        {order.items.map((item) => (
          <li key={item.productId} className="flex items-center justify-between gap-3 p-4 text-sm">
            <Link href={`/product/${item.productId}`} className="hover:underline">
              {item.quantity} × {item.name}
            </Link>
            <span className="font-serif font-semibold tabular-nums">{formatEuro(item.totalPrice)}</span>
          </li>
        ))}
      </ul>
      <div className="grid gap-4 sm:grid-cols-3">
        {order.address ? (
          <div className="rounded-xl border bg-card p-4 text-sm">
            <h2 className="mb-2 font-sans text-xs font-semibold tracking-wider text-muted-foreground uppercase">Ships to</h2>
            <p className="font-medium">{order.address.name}</p>
            {order.address.lines.map((line) => (
              <p key={line}>{line}</p>
            ))}
            <p>{order.address.country}</p>
          </div>
        ) : null}
        {order.shipping ? (
          <div className="rounded-xl border bg-card p-4 text-sm">
            <h2 className="mb-2 font-sans text-xs font-semibold tracking-wider text-muted-foreground uppercase">Shipping</h2>
            <p>{order.shipping.method === "TNT" ? "Tracked" : "Untracked"}{order.shipping.carrier ? ` with ${order.shipping.carrier}` : ""}</p>
            {order.shipping.trackingNumber ? <p>Tracking: {order.shipping.trackingNumber}</p> : null}
            {order.shipping.estimatedDeliveryDate ? <p>Expected {order.shipping.estimatedDeliveryDate}</p> : null}
          </div>
        ) : null}
        {order.payment ? (
          <dl className="rounded-xl border bg-card p-4 text-sm">
            <h2 className="mb-2 font-sans text-xs font-semibold tracking-wider text-muted-foreground uppercase">Payment</h2>
            <div className="flex justify-between"><dt>Items</dt><dd>{formatEuro(order.payment.itemTotal)}</dd></div>
            <div className="flex justify-between"><dt>Discount</dt><dd>−{formatEuro(order.payment.discount)}</dd></div>
            <div className="flex justify-between"><dt>Shipping</dt><dd>{formatEuro(order.payment.shipping)}</dd></div>
            <div className="mt-1 flex justify-between font-semibold"><dt>Total</dt><dd>{formatEuro(order.payment.total)}</dd></div>
          </dl>
        ) : null}
      </div>
    </section>
  );
}
