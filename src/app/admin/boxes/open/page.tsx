import { BoxList } from "@/features/admin/boxes/box-list";

export const metadata = { title: "Open boxes" };

export default function OpenBoxesPage() {
  return <BoxList view="open" />;
}
