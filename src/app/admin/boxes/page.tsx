import { redirect } from "next/navigation";

export default function BoxesPage() {
  redirect("/admin/boxes/open");
}
