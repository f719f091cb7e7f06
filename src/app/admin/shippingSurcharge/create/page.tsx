import { ArrivesLater } from "@/features/admin/arrives-later";

export const metadata = { title: "New surcharge" };

export default function Page() {
  return <ArrivesLater area="shipping" what="Adding an order-value band with its insurance surcharge comes with the shipping issue." />;
}
