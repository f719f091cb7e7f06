"use client";

import { ShoppingBag } from "lucide-react";
import { lazy } from "react";
import { LoadOnUse } from "@/components/load-on-use";
import { buttonVariants } from "@/components/ui/button";
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
        // The variants' classes as they are: Button would run tailwind-merge for the extra class on every page.
        <button type="button" className={buttonVariants({ variant: "ghost", size: "icon", className: "relative" })} aria-label={itemCount > 0 ? `Cart, ${itemCount} ${itemCount === 1 ? "piece" : "pieces"}` : "Cart"}>
          <ShoppingBag />
          {itemCount > 0 ? (
            <span className="absolute top-0.5 right-0.5 flex min-w-4.5 items-center justify-center rounded-full bg-primary px-1 text-[0.65rem] font-semibold leading-4.5 text-primary-foreground tabular-nums">
              {itemCount > 99 ? "99+" : itemCount}
            </span>
          ) : null}
        </button>
      }
    >
      {(trigger) => <CartDrawer trigger={trigger} />}
    </LoadOnUse>
  );
}
