import { ArrivesLater } from "@/features/admin/arrives-later";

export const metadata = { title: "Shipping calendar" };

export default function Page() {
  return <ArrivesLater area="orders" what="The calendar of post days (Monday, Wednesday, Friday) is in the database; its editor comes with the orders issue." />;
}
