"use client";

import { Skeleton } from "@/components/ui/skeleton";
import { useCart } from "./cart-context";
import { CartLine } from "./cart-line";
import { EmptyCart } from "./empty-cart";

export function CartLinesPlaceholder() {
  return (
    <ul aria-label="Loading your cart" className="flex flex-col divide-y px-4">
      {[0, 1, 2].map((key) => (
        <li key={key} className="flex gap-3 py-4">
          <Skeleton className="size-16 sm:size-20" />
          <div className="flex flex-1 flex-col gap-2">
            <Skeleton className="h-4 w-4/5" />
            <Skeleton className="h-4 w-1/3" />
            <Skeleton className="mt-2 h-8 w-28" />
          </div>
        </li>
      ))}
    </ul>
  );
}

/** The lines of the cart, its loading placeholders or its empty state. */
export function CartContents({ emptyAction, readOnly = false }: { emptyAction?: React.ReactNode; readOnly?: boolean }) {
  const { cart, isLoading } = useCart();
  if (isLoading || !cart) return <CartLinesPlaceholder />;
  if (cart.items.length === 0) return <EmptyCart>{emptyAction}</EmptyCart>;
  return (
    <ul className="flex flex-col divide-y px-4" aria-label="Cart lines">
      {cart.items.map((line) => (
        <CartLine key={line.productId} line={line} readOnly={readOnly} />
      ))}
    </ul>
  );
}
