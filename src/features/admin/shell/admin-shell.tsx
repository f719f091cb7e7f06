import type { ReactNode } from "react";
import { Suspense } from "react";
import { AdminNavDrawer } from "./admin-nav-drawer";
import { AdminSidebar, type AdminUser } from "./admin-sidebar";
import { AdminTopbar } from "./admin-topbar";
import { EnvironmentBanner } from "./environment-banner";

/**
 * From the medium breakpoint up: the sidebar column beside the top bar and the page. Below it the sidebar is a drawer
 * behind the top bar's menu button and the page takes the whole width.
 */
export function AdminShell({ user, serverUrl, children }: { user: AdminUser; serverUrl: string; children: ReactNode }) {
  return (
    <div className="flex min-h-dvh bg-background">
      <AdminSidebar user={user} banner={<EnvironmentBanner serverUrl={serverUrl} place="sidebar" />} />
      <div className="flex min-w-0 flex-1 flex-col">
        {/* A strip above the top bar on a phone; from the medium breakpoint up it closes the sidebar. */}
        <EnvironmentBanner serverUrl={serverUrl} place="strip" />
        {/* The top bar reads the address's query (for the back button), which needs a suspense boundary. */}
        <Suspense fallback={<div className="h-14 border-b" />}>
          <AdminTopbar menu={<AdminNavDrawer user={user} />} />
        </Suspense>
        <main className="min-w-0 flex-1 px-5 py-5">{children}</main>
      </div>
    </div>
  );
}
