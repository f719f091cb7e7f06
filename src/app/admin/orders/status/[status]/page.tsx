import { notFound } from "next/navigation";
import { ArrivesLater } from "@/features/admin/arrives-later";
import { humanize } from "@/features/admin/format";

const statuses = ["all", "pending", "paid_ready_to_ship", "paid_future_shipment", "processed", "shipped", "cancelled"];

export default async function OrdersByStatusPage({ params }: { params: Promise<{ status: string }> }) {
  const { status } = await params;
  if (!statuses.includes(status)) notFound();
  return (
    <ArrivesLater
      area="orders"
      what={`The ${status === "all" ? "full order list" : `list of ${humanize(status).toLowerCase()} orders`} comes with the orders issue. The sidebar already counts orders waiting in each status.`}
    />
  );
}
