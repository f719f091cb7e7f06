import { StockValueReport } from "@/features/admin/reports/stock-value-report";

export const metadata = { title: "Stock value" };

export default function StockValuePage() {
  return <StockValueReport />;
}
