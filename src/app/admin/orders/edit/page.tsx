import { Suspense } from "react";
import { ManualOrderEdit } from "@/features/admin/orders/manual-order-edit";

export const metadata = { title: "Edit an order" };

export default function EditOrderPage() {
  return (
    <Suspense>
      <ManualOrderEdit />
    </Suspense>
  );
}
