import { notFound } from "next/navigation";
import { DiscountEditor } from "@/features/admin/discounts/discount-editor";

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }) {
  return { title: `Discount ${(await params).id}` };
}

/** One discount, under "Manage discounts" so the sidebar and the top bar name the list it belongs to. */
export default async function DiscountPage({ params }: { params: Promise<{ id: string }> }) {
  const id = Number((await params).id);
  if (!Number.isInteger(id) || id < 1 || id > 2_147_483_647) notFound();
  return <DiscountEditor id={id} />;
}
