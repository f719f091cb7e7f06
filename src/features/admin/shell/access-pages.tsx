import Link from "next/link";
import { ShieldX } from "lucide-react";
import { BalanceWheelMark } from "@/features/layout/logo";

/** The 403 page for signed-in customers who reach /admin. */
export function ForbiddenPage() {
  return (
    <main className="flex min-h-dvh items-center justify-center bg-background p-6">
      <div className="w-full max-w-md rounded-xl border bg-card p-8 text-center shadow-sm">
        <div className="mx-auto flex size-12 items-center justify-center rounded-full bg-destructive/10 text-destructive">
          <ShieldX className="size-6" />
        </div>
        <p className="mt-4 text-xs font-semibold tracking-[0.2em] text-muted-foreground">ERROR 403</p>
        <h1 className="mt-1 font-serif text-2xl font-semibold">This room is for shop staff</h1>
        <p className="mt-3 text-sm text-muted-foreground">
          You are signed in, but your account has no access to the back office. If you work
          here, ask an administrator to give your account the admin role.
        </p>
        <div className="mt-6 flex items-center justify-center gap-3">
          <Link href="/" className="inline-flex h-9 items-center gap-2 rounded-md bg-primary px-4 text-sm font-medium text-primary-foreground hover:bg-primary/90">
            <BalanceWheelMark className="size-4" /> Back to the shop
          </Link>
        </div>
      </div>
    </main>
  );
}
