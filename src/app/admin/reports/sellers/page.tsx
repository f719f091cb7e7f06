import { SellersReport } from "@/features/admin/reports/sellers-report";

export const metadata = { title: "Best and worst sellers" };

export default function SellersPage() {
  return <SellersReport />;
}
