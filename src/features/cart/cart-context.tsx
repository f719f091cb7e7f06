"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import { Decimal } from "decimal.js";
import { useSession } from "next-auth/react";
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { toast } from "@/components/toast";
import { CART_FULL_MESSAGE, MAX_CART_LINES } from "@/lib/cart";
import { useTRPC } from "@/lib/trpc/client";
import type { PricedCart } from "@/server/pricing/schemas";
import { readLocalCart, useLocalCart, writeLocalCart } from "./cart-storage";

/** Cart polling and the texts of SPEC sections 8 and 9. */
export const CART_REFETCH_INTERVAL_MS = 30_000;
const TOAST_ID = "cart";
export const CART_UPDATE_FAILED = "Oops! Couldn't update your cart";
export const UNKNOWN_ERROR = "Unknown error occurred";

export type AddToCartLine = { productId: number; name: string; price: string };

export type CartContextValue = {
  /** The cart priced by the server; null while it loads. */
  cart: PricedCart | null;
  isLoading: boolean;
  isSignedIn: boolean;
  itemCount: number;
  /** Products whose line is being changed right now. */
  pendingProductIds: ReadonlySet<number>;
  addToCart: (line: AddToCartLine) => Promise<void>;
  changeQuantity: (productId: number, delta: number) => Promise<void>;
  removeItem: (productId: number) => Promise<void>;
  couponCode: string | null;
  isValidatingCoupon: boolean;
  /** Resolves to null when the code applies, or to the message saying why not. */
  applyCoupon: (code: string) => Promise<string | null>;
  removeCoupon: () => void;
};

const CartContext = createContext<CartContextValue | null>(null);

const emptyCart: PricedCart = {
  items: [], itemCount: 0, subtotal: new Decimal(0), discount: null, total: new Decimal(0), coupon: null, couponMessage: null, unavailableProductIds: [],
};

function messageOf(error: unknown): string {
  if (error instanceof TRPCClientError || error instanceof Error) return error.message || UNKNOWN_ERROR;
  return UNKNOWN_ERROR;
}

/** 'added to' for a line that grew, 'removed from' for one that shrank or left the cart. */
function announce(name: string, added: boolean) {
  toast.success(`Product "${name}" ${added ? "added to" : "removed from"} cart`, { id: TOAST_ID });
}

function failed(error: unknown) {
  toast.error(CART_UPDATE_FAILED, { id: TOAST_ID, description: messageOf(error) });
}

/**
 * The cart (SPEC sections 4, 7 and 8). Visitors keep it in local storage under `cartItems` and see it priced by
 * the server; customers keep it on the server, refetched on focus and every 30 s. On sign-in the local cart is
 * merged into the server's, emptied and the server's refetched.
 */
export function CartProvider({ children }: { children: ReactNode }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { status } = useSession();
  const isSignedIn = status === "authenticated";
  const localItems = useLocalCart();
  const [couponCode, setCouponCode] = useState<string | null>(null);
  const [isValidatingCoupon, setValidatingCoupon] = useState(false);
  const [pending, setPending] = useState<ReadonlySet<number>>(new Set());
  const mergedForSession = useRef(false);

  const { mutateAsync: merge } = useMutation(trpc.shared.cart.merge.mutationOptions());
  const { mutateAsync: update } = useMutation(trpc.shared.cart.update.mutationOptions());
  const { mutateAsync: remove } = useMutation(trpc.shared.cart.delete.mutationOptions());
  const { mutateAsync: validate } = useMutation(trpc.shared.cart.discountValidate.mutationOptions());

  const cartInput = couponCode ? { couponCode } : undefined;
  const serverCart = useQuery({
    ...trpc.shared.cart.get.queryOptions(cartInput),
    // While a visitor's local cart waits to be merged, the saved cart is not final yet.
    enabled: isSignedIn && localItems.length === 0,
    refetchOnWindowFocus: true,
    refetchInterval: CART_REFETCH_INTERVAL_MS,
    placeholderData: keepPreviousData,
  });
  const quote = useQuery({
    ...trpc.shared.pricing.quote.queryOptions({ items: localItems.map(({ productId, quantity }) => ({ productId, quantity })) }),
    enabled: status === "unauthenticated" && localItems.length > 0,
    placeholderData: keepPreviousData,
  });


  // Merge the visitor's cart once per sign-in; a failed merge is ignored (SPEC section 8).
  useEffect(() => {
    if (!isSignedIn) {
      mergedForSession.current = false;
      return;
    }
    if (mergedForSession.current) return;
    mergedForSession.current = true;
    const items = readLocalCart();
    if (items.length === 0) return;
    merge({ currentCart: items.map(({ productId, quantity }) => ({ productId, quantity })) })
      .catch(() => undefined)
      .finally(() => {
        writeLocalCart([]);
        void queryClient.invalidateQueries({ queryKey: trpc.shared.cart.get.pathKey() });
      });
  }, [isSignedIn, merge, queryClient, trpc]);

  // Products the shop no longer sells leave the visitor's cart.
  useEffect(() => {
    const gone = quote.data?.unavailableProductIds ?? [];
    if (gone.length === 0) return;
    const current = readLocalCart();
    const kept = current.filter((item) => !gone.includes(item.productId));
    if (kept.length !== current.length) writeLocalCart(kept);
  }, [quote.data]);

  const cart: PricedCart | null = isSignedIn
    ? (serverCart.data ?? null)
    : status === "unauthenticated"
      ? localItems.length === 0
        ? emptyCart
        : (quote.data ?? null)
      : null;

  const track = useCallback(async (productId: number, work: () => Promise<void>) => {
    setPending((current) => new Set(current).add(productId));
    try {
      await work();
    } finally {
      setPending((current) => {
        const next = new Set(current);
        next.delete(productId);
        return next;
      });
    }
  }, []);

  const setServerCart = useCallback(
    (next: PricedCart) => queryClient.setQueryData(trpc.shared.cart.get.queryKey(couponCode ? { couponCode } : undefined), next),
    [queryClient, trpc, couponCode],
  );

  const changeLocal = useCallback(
    (productId: number, delta: number, fallback?: AddToCartLine) => {
      const items = readLocalCart();
      const existing = items.find((item) => item.productId === productId);
      const line = cart?.items.find((item) => item.productId === productId);
      const name = line?.name ?? existing?.name ?? fallback?.name ?? "";
      const wanted = (existing?.quantity ?? 0) + delta;
      if (!existing && wanted > 0 && items.length >= MAX_CART_LINES) {
        toast.error(CART_UPDATE_FAILED, { id: TOAST_ID, description: CART_FULL_MESSAGE });
        return;
      }
      // The stock the server last reported holds a visitor's cart too; the server checks again at checkout.
      const next = line ? Math.min(wanted, line.stock) : wanted;
      // Lines keep the order they were added in.
      const kept = existing
        ? items.flatMap((item) => (item.productId !== productId ? [item] : next > 0 ? [{ ...item, quantity: next }] : []))
        : next > 0
          ? [...items, { productId, name, price: fallback?.price ?? "", quantity: next }]
          : items;
      writeLocalCart(kept);
      if (line && wanted > line.stock) {
        toast.warning(`Only ${line.stock} of "${name}" in stock: your cart holds ${Math.max(next, 0)}.`, { id: TOAST_ID });
      } else {
        announce(name, delta > 0 && next > 0);
      }
    },
    [cart],
  );

  const changeQuantity = useCallback(
    (productId: number, delta: number, fallback?: AddToCartLine) =>
      track(productId, async () => {
        if (!isSignedIn) {
          changeLocal(productId, delta, fallback);
          return;
        }
        try {
          const result = await update({ update: { productId, quantity: delta }, ...(couponCode ? { couponCode } : {}) });
          setServerCart(result.cart);
          const name = result.cart.items.find((i) => i.productId === productId)?.name ?? cart?.items.find((i) => i.productId === productId)?.name ?? fallback?.name ?? "";
          if (result.notice) toast.warning(result.notice, { id: TOAST_ID });
          else announce(name, delta > 0 && result.cart.items.some((i) => i.productId === productId));
        } catch (error) {
          failed(error);
        }
      }),
    [track, isSignedIn, changeLocal, update, couponCode, setServerCart, cart],
  );

  const removeItem = useCallback(
    (productId: number) =>
      track(productId, async () => {
        const name = cart?.items.find((i) => i.productId === productId)?.name ?? "";
        if (!isSignedIn) {
          writeLocalCart(readLocalCart().filter((item) => item.productId !== productId));
          announce(name, false);
          return;
        }
        try {
          const next = await remove({ productId, ...(couponCode ? { couponCode } : {}) });
          setServerCart(next);
          announce(name, next.items.some((i) => i.productId === productId));
        } catch (error) {
          failed(error);
        }
      }),
    [track, cart, isSignedIn, remove, couponCode, setServerCart],
  );

  const applyCoupon = useCallback(
    async (code: string) => {
      setValidatingCoupon(true);
      try {
        const result = await validate({ code });
        queryClient.setQueryData(trpc.shared.cart.get.queryKey({ couponCode: result.coupon.code }), result.cart);
        setCouponCode(result.coupon.code);
        return null;
      } catch (error) {
        return messageOf(error);
      } finally {
        setValidatingCoupon(false);
      }
    },
    [validate, queryClient, trpc],
  );

  const value = useMemo<CartContextValue>(
    () => ({
      cart,
      isLoading: cart === null,
      isSignedIn,
      itemCount: cart?.itemCount ?? localItems.reduce((sum, item) => sum + item.quantity, 0),
      pendingProductIds: pending,
      addToCart: (line) => changeQuantity(line.productId, 1, line),
      changeQuantity: (productId, delta) => changeQuantity(productId, delta),
      removeItem,
      couponCode,
      isValidatingCoupon,
      applyCoupon,
      removeCoupon: () => setCouponCode(null),
    }),
    [cart, isSignedIn, localItems, pending, changeQuantity, removeItem, couponCode, isValidatingCoupon, applyCoupon],
  );

  return <CartContext.Provider value={value}>{children}</CartContext.Provider>;
}

export function useCart(): CartContextValue {
  const context = useContext(CartContext);
  if (!context) throw new Error("useCart must be used within a CartProvider");
  return context;
}
