import { ArrivesLater } from "@/features/admin/arrives-later";

export const metadata = { title: "Manage surcharges" };

export default function Page() {
  return <ArrivesLater area="shipping" what="The surcharge bands are in the database; their editor comes with the shipping issue." />;
}
