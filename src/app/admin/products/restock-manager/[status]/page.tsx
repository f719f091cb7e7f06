import { notFound } from "next/navigation";
import { RestockView } from "@/features/admin/stock/restock-view";

const statuses = { pending: "PENDING", approved: "APPROVED", rejected: "REJECTED", received: "RECEIVED" } as const;

export const metadata = { title: "Restock manager" };

export default async function RestockPage({ params }: { params: Promise<{ status: string }> }) {
  const { status } = await params;
  if (!(status in statuses)) notFound();
  return <RestockView status={statuses[status as keyof typeof statuses]} />;
}
