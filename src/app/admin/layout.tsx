import type { Metadata } from "next";
import type { ReactNode } from "react";
import { env } from "@/env";
import { AdminShell } from "@/features/admin/shell/admin-shell";
import { ForbiddenPage, RedirectToSignIn } from "@/features/admin/shell/access-pages";
import { adminPageAccess } from "@/server/admin/page-access";
import "./admin.css";

export const metadata: Metadata = {
  title: { default: "Admin panel", template: "%s · Admin panel" },
  robots: { index: false, follow: false },
};

/**
 * Every /admin page passes through here: the ADMIN role is checked on the server before any of the admin area is
 * rendered. Anonymous visitors go to sign in, signed-in customers get the 403 page. (The data itself is guarded
 * again by adminProcedure on every call.)
 */
export default async function AdminLayout({ children }: { children: ReactNode }) {
  const access = await adminPageAccess();
  if (access.kind === "anonymous") return <RedirectToSignIn />;
  if (access.kind === "forbidden") return <ForbiddenPage name={access.user.name} />;
  const { name, email, image } = access.user;
  return (
    <AdminShell user={{ name, email, image }} serverUrl={env.NEXT_PUBLIC_SERVER_URL}>
      {children}
    </AdminShell>
  );
}
