import { DiscountForm } from "@/features/admin/discounts/discount-form";

export const metadata = { title: "New discount" };

export default function CreateDiscountPage() {
  return <DiscountForm />;
}
