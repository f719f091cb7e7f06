import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { OrderOverview } from "@/features/orders/order-overview";
import { OrderStatusBadge } from "@/features/orders/order-status";
import { requireSession } from "@/server/auth/require-session";
import { getDb } from "@/server/db/client";
import { rowId } from "@/lib/id";
import { foundOrNull } from "@/server/http/found-or-null";
import { getCustomerOrder } from "@/server/orders/view";

export const metadata: Metadata = { title: "Order", robots: { index: false } };
export const dynamic = "force-dynamic";

const date = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric" });

export default async function OrderPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const session = await requireSession(`/account/orders/${id}`);
  const orderId = rowId.safeParse(Number(id));
  if (!orderId.success) notFound();
  const order = (await foundOrNull(getCustomerOrder(getDb(), session.user.id, orderId.data))) ?? notFound();

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
      <OrderOverview order={order} />
    </section>
  );
}
