import { BoxList } from "@/features/admin/stock/box-list";

export const metadata = { title: "Open boxes" };

export default function OpenBoxesPage() {
  return <BoxList view="open" />;
}
