import { redirect } from "next/navigation";

export default function LogbookHome() {
  redirect("/admin/logbook/level/info");
}
