"use client";

import Link from "next/link";
import { Button } from "@/components/ui/button";
import { CartContents } from "./cart-contents";
import { useCart } from "./cart-context";
import { CartTotals } from "./cart-totals";

/** The cart as a page, for a shared link or a bookmark: the drawer's lines and totals with room to breathe. */
export function CartPage() {
  const { cart } = useCart();
  const filled = Boolean(cart && cart.items.length > 0);
  return (
    <div className="mx-auto grid max-w-5xl gap-8 px-4 py-10 sm:px-6 lg:grid-cols-[1fr_22rem]">
      <section className="rounded-xl border bg-card">
        <h1 className="border-b px-4 py-4 font-serif text-3xl font-semibold">Cart</h1>
        <CartContents
          emptyAction={
            <Button variant="outline" asChild>
              <Link href="/">Browse new arrivals</Link>
            </Button>
          }
        />
      </section>
      {filled && cart ? (
        <aside className="flex h-fit flex-col gap-4 rounded-xl border bg-card p-5 lg:sticky lg:top-6">
          <CartTotals cart={cart} />
          <Button asChild size="lg">
            <Link href="/checkout">Go to checkout</Link>
          </Button>
        </aside>
      ) : null}
    </div>
  );
}
