import { ArrivesLater } from "@/features/admin/arrives-later";

export const metadata = { title: "Manage ads" };

export default function Page() {
  return <ArrivesLater area="marketplace" what="Publishing and updating marketplace offers comes with the marketplace issue; its bulk update's progress already shows in the top bar." />;
}
