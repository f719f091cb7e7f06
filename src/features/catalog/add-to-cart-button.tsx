"use client";

import { Loader2, ShoppingBag } from "lucide-react";
import { Button } from "@/components/ui/button";
import { useAddToCart } from "@/features/cart/use-add-to-cart";
import { cn } from "@/lib/utils";

/** Adds one piece; the button spins while this product is being added, and says so when it is sold out. */
export function AddToCartButton({
  productId,
  name,
  price,
  inStock,
  compact = false,
  className,
}: {
  productId: number;
  name: string;
  /** The price the cart line starts with, as decimal text; the server recomputes it anyway. */
  price: string;
  inStock: boolean;
  compact?: boolean;
  className?: string;
}) {
  const { addToCart, pendingProductId } = useAddToCart();
  const pending = pendingProductId === productId;
  return (
    <Button
      type="button"
      size={compact ? "sm" : "lg"}
      className={cn("relative z-10", className)}
      disabled={!inStock || pending}
      aria-label={compact ? `Add ${name} to cart` : undefined}
      onClick={() => void addToCart({ productId, name, price })}
    >
      {pending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <ShoppingBag aria-hidden="true" />}
      <span className={compact ? "sr-only sm:not-sr-only" : undefined}>{inStock ? "Add to cart" : "Sold out"}</span>
    </Button>
  );
}
