"use client";

import { ShoppingBag } from "lucide-react";
import { Button } from "@/components/ui/button";

/**
 * The navbar's cart item. Until the cart drawer exists (accounts and cart issue) it only shows where the cart
 * will open; the navbar imports it from here so that the cart can replace it without touching the navbar.
 */
export function CartButton({ className }: { className?: string }) {
  return (
    <Button variant="ghost" size="icon" aria-label="Cart" className={className} disabled>
      <ShoppingBag />
    </Button>
  );
}
