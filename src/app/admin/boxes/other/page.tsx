import { BoxList } from "@/features/admin/stock/box-list";

export const metadata = { title: "Shipped & exploded boxes" };

export default function OtherBoxesPage() {
  return <BoxList view="other" />;
}
