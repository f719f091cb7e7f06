"use client";

import Link from "next/link";
import { useState, type ReactElement } from "react";
import { Button } from "@/components/ui/button";
import { Sheet, SheetClose, SheetContent, SheetDescription, SheetFooter, SheetHeader, SheetTitle, SheetTrigger } from "@/components/ui/sheet";
import { CartContents } from "./cart-contents";
import { useCart } from "./cart-context";
import { CartTotals } from "./cart-totals";

/** The cart drawer (SPEC section 2) sliding in from the side; loaded on first use, open. */
export default function CartDrawer({ trigger }: { trigger: ReactElement }) {
  const { cart, itemCount } = useCart();
  const [open, setOpen] = useState(true);
  const filled = Boolean(cart && cart.items.length > 0);
  return (
    <Sheet open={open} onOpenChange={setOpen}>
      <SheetTrigger asChild>{trigger}</SheetTrigger>
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
