import { ArrivesLater } from "@/features/admin/arrives-later";

export const metadata = { title: "New discount" };

export default function Page() {
  return <ArrivesLater area="discounts" what="Creating product, global, user and coupon discounts comes with the discounts issue." />;
}
