import { redirect } from "next/navigation";

/** The reports open on the first the owner asks for: sales and margin. */
export default function ReportsPage() {
  redirect("/admin/reports/sales");
}
