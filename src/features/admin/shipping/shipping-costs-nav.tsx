"use client";

import { Globe2, Percent, Plus } from "lucide-react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import type { ReactNode } from "react";
import { cn } from "@/lib/utils";

const pages = [
  { href: "/admin/shippingSurcharge/manage", label: "Surcharge bands", icon: Percent },
  { href: "/admin/shippingSurcharge/create", label: "New band", icon: Plus },
  { href: "/admin/shippingSurcharge/countries", label: "Countries & regions", icon: Globe2 },
];

/**
 * The shipping cost pages side by side: what an order's value adds to shipping, and what each destination costs.
 * Staff reach the countries from here as well as from the sidebar.
 */
export function ShippingCostsNav({ actions }: { actions?: ReactNode }) {
  const pathname = usePathname();
  return (
    <div className="mb-4 flex flex-wrap items-center gap-3 border-b">
      <nav aria-label="Shipping costs" className="-mb-px flex gap-1 overflow-x-auto">
        {pages.map(({ href, label, icon: Icon }) => {
          const current = pathname === href || pathname.startsWith(`${href}/`);
          return (
            <Link
              key={href}
              href={href}
              aria-current={current ? "page" : undefined}
              className={cn(
                "inline-flex items-center gap-1.5 border-b-2 px-3 py-2 text-sm whitespace-nowrap transition-colors",
                current ? "border-brass font-medium text-foreground" : "border-transparent text-muted-foreground hover:text-foreground",
              )}
            >
              <Icon className="size-4" aria-hidden="true" />
              {label}
            </Link>
          );
        })}
      </nav>
      {actions ? <div className="mb-1.5 ml-auto flex items-center gap-2">{actions}</div> : null}
    </div>
  );
}
