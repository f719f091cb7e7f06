import { ArrivesLater } from "@/features/admin/arrives-later";

export const metadata = { title: "Edit an order" };

export default function Page() {
  return <ArrivesLater area="orders" what="Editing an order's lines, address and shipping comes with the orders issue." />;
}
