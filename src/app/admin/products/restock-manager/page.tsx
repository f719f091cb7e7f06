import { redirect } from "next/navigation";

export default function RestockManagerPage() {
  redirect("/admin/products/restock-manager/pending");
}
