import { notFound } from "next/navigation";
import { Suspense } from "react";
import { OrderTable } from "@/features/admin/orders/order-table";
import { orderListSlugs, type OrderListSlug } from "@/server/orders/admin-schemas";

export const metadata = { title: "Orders" };

export default async function OrdersByStatusPage({ params }: { params: Promise<{ status: string }> }) {
  const { status } = await params;
  if (!(orderListSlugs as readonly string[]).includes(status)) notFound();
  return (
    <Suspense>
      <OrderTable slug={status as OrderListSlug} />
    </Suspense>
  );
}
