"use client";

import { usePathname } from "next/navigation";
import { NavListItem } from "@/components/nav-list-item";

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
        {sections.map((section) => (
          <NavListItem
            key={section.href}
            href={section.href}
            active={section.href === "/account" ? pathname === "/account" : pathname.startsWith(section.href)}
            className="-mb-px inline-block border-b-2 border-transparent px-3 py-2.5 text-sm whitespace-nowrap text-muted-foreground transition-colors hover:text-foreground"
            activeClassName="border-primary font-medium text-foreground"
          >
            {section.label}
          </NavListItem>
        ))}
      </ul>
    </nav>
  );
}
