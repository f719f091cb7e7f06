import { notFound } from "next/navigation";
import { OrderDetail } from "@/features/admin/orders/order-detail";

export async function generateMetadata({ params }: { params: Promise<{ orderNumber: string }> }) {
  return { title: `Order ${decodeURIComponent((await params).orderNumber)}` };
}

export default async function OrderPage({ params }: { params: Promise<{ orderNumber: string }> }) {
  const orderNumber = decodeURIComponent((await params).orderNumber);
  if (!/^[A-Za-z0-9-]{1,40}$/.test(orderNumber)) notFound();
  return <OrderDetail orderNumber={orderNumber} />;
}
