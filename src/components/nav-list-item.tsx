"use client";

import Link from "next/link";
import type { ReactNode } from "react";
import { cn } from "@/lib/utils";

/**
 * An entry of a navigation list (the account tabs, the admin sidebar): a link that marks the current page for screen
 * readers (`aria-current`) and for the eye (`activeClassName` over `className`).
 */
export function NavListItem({ href, active, className, activeClassName, children }: { href: string; active: boolean; className: string; activeClassName: string; children: ReactNode }) {
  return (
    <li>
      <Link href={href} aria-current={active ? "page" : undefined} className={cn(className, active && activeClassName)}>
        {children}
      </Link>
    </li>
  );
}
