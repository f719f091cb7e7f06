"use client";

import { usePathname } from "next/navigation";
import type { ReactNode } from "react";

/** The page area: a large bottom margin (room above the mobile bottom bar) everywhere except /checkout. */
export function ShopMain({ children }: { children: ReactNode }) {
  const pathname = usePathname();
  return (
    <main id="main" className={pathname.startsWith("/checkout") ? "flex-1" : "mb-28 flex-1 lg:mb-16"}>
      {children}
    </main>
  );
}
