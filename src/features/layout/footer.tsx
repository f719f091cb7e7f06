"use client";

import Link from "next/link";
import { shopIdentity } from "@/lib/shop";
import type { NavbarData } from "@/server/navbar/schemas";
import { useNavbarData } from "./queries";

/** The footer, rendered in the browser only (SPEC section 2): browse links, what the shop is, and the year. */
export default function Footer({ shopName, initialData }: { shopName: string; initialData: NavbarData }) {
  const { data } = useNavbarData(initialData);
  const brands = data?.manufacturers[0]?.children?.slice(0, 8) ?? [];
  const categories = data?.categories ?? [];
  return (
    <footer className="border-t bg-secondary/40">
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-10 text-sm sm:px-6 md:grid-cols-4">
        <div className="md:col-span-2">
          <p className="font-serif text-lg font-semibold">{shopName}</p>
          <p className="mt-2 max-w-md text-muted-foreground">{shopIdentity.description}</p>
        </div>
        <div>
          <h2 className="mb-2 font-sans text-sm font-semibold">Categories</h2>
          <ul className="space-y-1.5">
            {categories.map((category) => (
              <li key={category.id}>
                {/* Not prefetched: the footer's browse links are many and rarely the next click. */}
                <Link href={category.href ?? "/404"} prefetch={false} className="text-muted-foreground hover:text-foreground hover:underline">
                  {category.name}
                </Link>
              </li>
            ))}
          </ul>
        </div>
        <div>
          <h2 className="mb-2 font-sans text-sm font-semibold">Brands</h2>
          <ul className="space-y-1.5">
            {brands.map((brand) => (
              <li key={brand.id}>
                <Link href={brand.href ?? "/404"} prefetch={false} className="text-muted-foreground hover:text-foreground hover:underline">
                  {brand.name}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      </div>
      <div className="border-t">
        <p className="mx-auto max-w-7xl px-4 py-4 text-xs text-muted-foreground sm:px-6">
          © {new Date().getFullYear()} {shopName} · {shopIdentity.strapLine}
        </p>
      </div>
    </footer>
  );
}
