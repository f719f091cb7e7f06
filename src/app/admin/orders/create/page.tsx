import { ManualOrderForm } from "@/features/admin/orders/manual-order-form";

export const metadata = { title: "Add an order" };

export default function CreateOrderPage() {
  return <ManualOrderForm />;
}
