"use client";

import { Loader2 } from "lucide-react";
import { buttonVariants } from "@/components/ui/button";
import { useAddToCart } from "@/features/cart/use-add-to-cart";
import { BagIcon } from "./bag-icon";

/**
 * Adds one piece; the button spins while this product is being added, and says so when it is sold out. Every card
 * has one, so its classes are joined without tailwind-merge (see Button): `className` places the button (margin,
 * width) and never restyles it.
 */
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
    <button
      type="button"
      className={buttonVariants({ size: compact ? "sm" : "lg", className: ["relative z-10", className] })}
      disabled={!inStock || pending}
      aria-label={compact ? `Add ${name} to cart` : undefined}
      onClick={() => void addToCart({ productId, name, price })}
    >
      {pending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <BagIcon />}
      <span className={compact ? "sr-only sm:not-sr-only" : undefined}>{inStock ? "Add to cart" : "Sold out"}</span>
    </button>
  );
}
