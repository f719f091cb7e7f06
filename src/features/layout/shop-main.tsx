"use client";

import { usePathname } from "next/navigation";
import type { ReactNode } from "react";
import { cn } from "@/lib/utils";

/** The page area: a large bottom margin (room above the mobile bottom bar) everywhere except /checkout. */
export function ShopMain({ children }: { children: ReactNode }) {
  const pathname = usePathname();
  return (
    <main id="main" className={cn("flex-1", pathname.startsWith("/checkout") ? "mb-0" : "mb-28 lg:mb-16")}>
      {children}
    </main>
  );
}
