import type { Metadata } from "next";
import { ForbiddenPage } from "@/features/admin/shell/access-pages";

export const metadata: Metadata = { title: "No access", robots: { index: false, follow: false } };

/** What forbidden() shows, with the 403 status: today only signed-in customers who open /admin. */
export default function Forbidden() {
  return <ForbiddenPage />;
}
