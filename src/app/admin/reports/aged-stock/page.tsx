import { Suspense } from "react";
import { AgedStockReport } from "@/features/admin/reports/aged-stock-report";

export const metadata = { title: "Aged stock" };

export default function AgedStockPage() {
  return (
    <Suspense>
      <AgedStockReport />
    </Suspense>
  );
}
