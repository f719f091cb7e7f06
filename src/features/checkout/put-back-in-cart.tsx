"use client";

import { Loader2, ShoppingCart } from "lucide-react";
import { useSession } from "next-auth/react";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { readLocalCart, writeLocalCart } from "@/features/cart/cart-storage";
import { useMergeCart, useRefreshSavedCart } from "@/features/cart/queries";

type Line = { productId: number; name: string; quantity: number };

/**
 * After a failed payment: puts the cancelled order's pieces back in the cart (the saved cart of a customer, the
 * browser's of a guest), so trying again is one click, and opens the cart. Stock is checked again at checkout.
 */
export function PutBackInCart({ items }: { items: Line[] }) {
  const router = useRouter();
  const { status } = useSession();
  const merge = useMergeCart({ title: "Your cart could not be filled again" });
  const refreshSavedCart = useRefreshSavedCart();

  async function putBack() {
    try {
      if (status === "authenticated") {
        await merge.mutateAsync({ currentCart: items.map(({ productId, quantity }) => ({ productId, quantity })) });
        await refreshSavedCart();
      } else {
        const lines = readLocalCart();
        const missing = items.filter((item) => !lines.some((line) => line.productId === item.productId));
        writeLocalCart([...lines, ...missing.map((item) => ({ ...item, price: "" }))]);
      }
      router.push("/cart");
    } catch {
      // The mutation cache has shown why.
    }
  }

  return (
    <Button onClick={() => void putBack()} disabled={merge.isPending || status === "loading"}>
      {merge.isPending ? <Loader2 className="animate-spin" /> : <ShoppingCart />}
      Put these back in my cart
    </Button>
  );
}
