import { SellThroughReport } from "@/features/admin/reports/sell-through-report";

export const metadata = { title: "Sell-through" };

export default function SellThroughPage() {
  return <SellThroughReport />;
}
