"use client";

import { ShoppingBag } from "lucide-react";
import { lazy } from "react";
import { LoadOnUse } from "@/components/load-on-use";
import { Button } from "@/components/ui/button";
import { useCart } from "./cart-context";

const loadDrawer = () => import("./cart-drawer");
const CartDrawer = lazy(loadDrawer);

/** The navbar's cart item with its count badge; the drawer loads on first use. */
export function CartButton() {
  const { itemCount } = useCart();
  return (
    <LoadOnUse
      preload={loadDrawer}
      trigger={
        <Button variant="ghost" size="icon" aria-label={itemCount > 0 ? `Cart, ${itemCount} ${itemCount === 1 ? "piece" : "pieces"}` : "Cart"} className="relative">
          <ShoppingBag />
          {itemCount > 0 ? (
            <span className="absolute top-0.5 right-0.5 flex min-w-4.5 items-center justify-center rounded-full bg-primary px-1 text-[0.65rem] font-semibold leading-4.5 text-primary-foreground tabular-nums">
              {itemCount > 99 ? "99+" : itemCount}
            </span>
          ) : null}
        </Button>
      }
    >
      {(trigger) => <CartDrawer trigger={trigger} />}
    </LoadOnUse>
  );
}
