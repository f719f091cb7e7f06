import type { ReactNode } from "react";
import { Suspense } from "react";
import { AdminSidebar, type AdminUser } from "./admin-sidebar";
import { AdminTopbar } from "./admin-topbar";
import { EnvironmentBanner } from "./environment-banner";

export function AdminShell({ user, serverUrl, children }: { user: AdminUser; serverUrl: string; children: ReactNode }) {
  return (
    <div className="flex min-h-dvh bg-background">
      <AdminSidebar user={user} />
      <div className="flex min-w-0 flex-1 flex-col">
        {/* The top bar reads the address's query (for the back button), which needs a suspense boundary. */}
        <Suspense fallback={<div className="h-14 border-b" />}>
          <AdminTopbar />
        </Suspense>
        <main className="min-w-0 flex-1 px-5 py-5">{children}</main>
      </div>
      <EnvironmentBanner serverUrl={serverUrl} />
    </div>
  );
}
