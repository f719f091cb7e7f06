import { notFound } from "next/navigation";
import { BoxDetailView } from "@/features/admin/stock/box-detail";

export const metadata = { title: "Box" };

export default async function BoxPage({ params }: { params: Promise<{ id: string }> }) {
  const id = Number((await params).id);
  if (!Number.isInteger(id) || id < 1) notFound();
  return <BoxDetailView boxId={id} />;
}
