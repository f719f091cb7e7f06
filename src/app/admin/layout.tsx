import type { Metadata } from "next";
import type { ReactNode } from "react";
import { shopUrl } from "@/server/config/shop-url";
import { AdminShell } from "@/features/admin/shell/admin-shell";
import { headers } from "next/headers";
import { forbidden, redirect } from "next/navigation";
import { signInRedirect } from "@/lib/auth-paths";
import { adminPageAccess } from "@/server/auth/admin-page-access";
import "./admin.css";

export const metadata: Metadata = {
  title: { default: "Admin panel", template: "%s · Admin panel" },
  robots: { index: false, follow: false },
};

/**
 * Every /admin page passes through here: the ADMIN role is checked on the server before any of the admin area is
 * rendered. Anonymous visitors (src/proxy.ts already sends those without a session cookie) go to sign in and come
 * back to the same address; signed-in customers get the 403 page (src/app/forbidden.tsx). The data itself is guarded
 * again by adminProcedure on every call.
 */
export default async function AdminLayout({ children }: { children: ReactNode }) {
  const access = await adminPageAccess();
  if (access.kind === "anonymous") redirect(signInRedirect((await headers()).get("x-admin-address") ?? "/admin/dashboard"));
  if (access.kind === "forbidden") forbidden();
  const { name, email, image } = access.user;
  return (
    <AdminShell user={{ name, email, image }} serverUrl={shopUrl()}>
      {children}
    </AdminShell>
  );
}
