import Link from "next/link";
import type { ReactNode } from "react";
import { env } from "@/env";
import { shopIdentity } from "@/lib/shop";
import { Logo } from "@/features/layout/logo";

export default function ShopLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col">
      <header className="border-b bg-background/90 backdrop-blur supports-[backdrop-filter]:bg-background/70">
        <div className="mx-auto flex h-16 max-w-7xl items-center justify-between px-4 sm:px-6">
          <Link href="/" aria-label={`${env.SHOP_NAME} home`} className="rounded-md focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none">
            <Logo name={env.SHOP_NAME} />
          </Link>
          <p className="hidden text-sm text-muted-foreground md:block">{shopIdentity.strapLine}</p>
        </div>
      </header>
      <main className="flex-1 pb-24">{children}</main>
      <footer className="border-t">
        <div className="mx-auto max-w-7xl px-4 py-8 text-sm text-muted-foreground sm:px-6">
          © {new Date().getFullYear()} {env.SHOP_NAME} · {shopIdentity.strapLine}
        </div>
      </footer>
    </div>
  );
}
