import { ArrivesLater } from "@/features/admin/arrives-later";

export const metadata = { title: "Add an order" };

export default function Page() {
  return <ArrivesLater area="orders" what="Adding an order by hand (a phone or counter sale) comes with the orders issue." />;
}
