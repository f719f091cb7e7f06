import { Package } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { OrderStatusBadge } from "@/features/orders/order-status";
import { formatEuro } from "@/lib/money";
import { listOrders } from "@/server/account/service";
import { requireSession } from "@/server/auth/require-session";
import { getDb } from "@/server/db/client";

export const metadata: Metadata = { title: "Orders", robots: { index: false } };
export const dynamic = "force-dynamic";

const date = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric" });

export default async function OrdersPage() {
  const session = await requireSession("/account/orders");
  const orders = await listOrders(getDb(), session.user.id);
  return (
    <section className="flex flex-col gap-4">
      <h1 className="font-serif text-2xl font-semibold">Orders</h1>
      {orders.length === 0 ? (
        <div className="flex flex-col items-center gap-2 rounded-xl border border-dashed p-10 text-center">
          <Package className="size-8 text-primary" aria-hidden />
          <p className="font-serif text-lg font-semibold">No orders yet</p>
          <p className="max-w-sm text-sm text-muted-foreground">When you order, each parcel and its tracking appear here.</p>
          <Link href="/" className="mt-2 text-sm font-medium text-primary underline-offset-4 hover:underline">
            Browse new arrivals
          </Link>
        </div>
      ) : (
        <ul className="divide-y rounded-xl border bg-card">
          {orders.map((order) => (
            <li key={order.id}>
              <Link href={`/account/orders/${order.id}`} className="flex flex-wrap items-center justify-between gap-3 p-4 hover:bg-accent/40">
                <span className="flex flex-col">
                  <span className="font-medium">Order {order.orderNumber}</span>
                  <span className="text-sm text-muted-foreground">
                    {date.format(order.createdAt)} · {order.itemCount} {order.itemCount === 1 ? "piece" : "pieces"}
                  </span>
                </span>
                <span className="flex items-center gap-3">
                  <OrderStatusBadge status={order.status} />
                  {order.total ? <span className="font-serif font-semibold tabular-nums">{formatEuro(order.total)}</span> : null}
                  {order.refunded.greaterThan(0) ? <span className="text-sm text-muted-foreground tabular-nums">{formatEuro(order.refunded)} refunded</span> : null}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
