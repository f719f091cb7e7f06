"use client";

import { ShoppingBag } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Sheet, SheetClose, SheetContent, SheetDescription, SheetFooter, SheetHeader, SheetTitle, SheetTrigger } from "@/components/ui/sheet";
import { cn } from "@/lib/utils";
import { CartContents } from "./cart-contents";
import { useCart } from "./cart-context";
import { CartTotals } from "./cart-totals";

/** The navbar's cart item: a count badge, and the cart drawer (SPEC section 2) sliding in from the side. */
export function CartButton({ className }: { className?: string }) {
  const { cart, itemCount } = useCart();
  const [open, setOpen] = useState(false);
  const filled = Boolean(cart && cart.items.length > 0);
  return (
    <Sheet open={open} onOpenChange={setOpen}>
      <SheetTrigger asChild>
        <Button variant="ghost" size="icon" aria-label={itemCount > 0 ? `Cart, ${itemCount} ${itemCount === 1 ? "piece" : "pieces"}` : "Cart"} className={cn("relative", className)}>
          <ShoppingBag />
          {itemCount > 0 ? (
            <span className="absolute top-0.5 right-0.5 flex min-w-4.5 items-center justify-center rounded-full bg-primary px-1 text-[0.65rem] font-semibold leading-4.5 text-primary-foreground tabular-nums">
              {itemCount > 99 ? "99+" : itemCount}
            </span>
          ) : null}
        </Button>
      </SheetTrigger>
      <SheetContent side="right" className="gap-0 p-0">
        <SheetHeader className="border-b">
          <SheetTitle>Cart</SheetTitle>
          <SheetDescription>{filled ? `${itemCount} ${itemCount === 1 ? "piece" : "pieces"}, kept for you` : "Pieces you add appear here."}</SheetDescription>
        </SheetHeader>
        <div className="flex flex-1 flex-col overflow-y-auto">
          <CartContents
            emptyAction={
              <SheetClose asChild>
                <Button variant="outline" asChild>
                  <Link href="/">Browse new arrivals</Link>
                </Button>
              </SheetClose>
            }
          />
        </div>
        {filled && cart ? (
          <SheetFooter className="border-t bg-card/60">
            <CartTotals cart={cart} />
            <SheetClose asChild>
              <Button asChild size="lg" className="mt-2 w-full">
                <Link href="/checkout">Go to checkout</Link>
              </Button>
            </SheetClose>
          </SheetFooter>
        ) : null}
      </SheetContent>
    </Sheet>
  );
}
