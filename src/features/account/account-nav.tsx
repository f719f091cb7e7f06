"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "@/lib/utils";

const sections = [
  { href: "/account", label: "Profile" },
  { href: "/account/addresses", label: "Address book" },
  { href: "/account/orders", label: "Orders" },
];

/** The account area's tabs; the current section is marked for screen readers too. */
export function AccountNav() {
  const pathname = usePathname();
  return (
    <nav aria-label="Your account" className="-mx-4 overflow-x-auto px-4">
      <ul className="flex gap-1 border-b">
        {sections.map((section) => {
          const active = section.href === "/account" ? pathname === "/account" : pathname.startsWith(section.href);
          return (
            <li key={section.href}>
              <Link
                href={section.href}
                aria-current={active ? "page" : undefined}
                className={cn(
                  "-mb-px inline-block border-b-2 px-3 py-2.5 text-sm whitespace-nowrap transition-colors",
                  active ? "border-primary font-medium text-foreground" : "border-transparent text-muted-foreground hover:text-foreground",
                )}
              >
                {section.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
