import { BoxList } from "@/features/admin/boxes/box-list";

export const metadata = { title: "Shipped & exploded boxes" };

export default function OtherBoxesPage() {
  return <BoxList view="other" />;
}
