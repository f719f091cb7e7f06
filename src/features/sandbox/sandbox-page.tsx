import type { ReactNode } from "react";
import { env } from "@/env";
import { Logo } from "@/features/layout/logo";

/**
 * The frame of a sandbox page (the hosted payment page, the Google stand-in): the shop's logo, one card with a
 * label saying what the page stands in for, and a line under it saying why it exists.
 */
export function SandboxPage({ label, headingId, standsInFor, children }: { label: string; headingId: string; standsInFor: string; children: ReactNode }) {
  return (
    <main className="flex min-h-dvh items-center justify-center bg-background px-4 py-12">
      <div className="w-full max-w-md">
        <div className="mb-6 flex justify-center">
          <Logo name={env.SHOP_NAME} />
        </div>
        <section aria-labelledby={headingId} className="rounded-xl border bg-card p-6 text-card-foreground shadow-sm sm:p-8">
          <p className="text-xs font-medium tracking-widest text-muted-foreground uppercase">{label}</p>
          {children}
        </section>
        <p className="mt-6 text-center text-xs text-muted-foreground">This page stands in for {standsInFor} while the shop runs with sandbox integrations.</p>
      </div>
    </main>
  );
}
