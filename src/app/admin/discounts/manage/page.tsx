import { ArrivesLater } from "@/features/admin/arrives-later";

export const metadata = { title: "Manage discounts" };

export default function Page() {
  return <ArrivesLater area="discounts" what="The list of discounts with their windows and values comes with the discounts issue." />;
}
