import { notFound } from "next/navigation";
import { CustomerPage } from "@/features/admin/account/customer-page";

export const metadata = { title: "Customer" };

export default async function CustomerRoute({ params }: { params: Promise<{ id: string }> }) {
  const id = decodeURIComponent((await params).id);
  if (!/^[\w-]{1,255}$/.test(id)) notFound();
  return <CustomerPage userId={id} />;
}
