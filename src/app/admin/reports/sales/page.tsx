import { SalesReport } from "@/features/admin/reports/sales-report";

export const metadata = { title: "Sales and margin" };

export default function SalesReportPage() {
  return <SalesReport />;
}
