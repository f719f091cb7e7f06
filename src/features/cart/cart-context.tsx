"use client";

import { TRPCClientError } from "@trpc/client";
import { Decimal } from "decimal.js";
import { useSession } from "next-auth/react";
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { toast } from "@/components/toast";
import { CART_FULL_MESSAGE, MAX_CART_LINES } from "@/lib/cart";
import { UNKNOWN_ERROR } from "@/lib/trpc/client";
import type { PricedCart } from "@/server/pricing/schemas";
import { readLocalCart, useLocalCartItems, writeLocalCart } from "./cart-storage";
import {
  CART_TOAST_ID,
  CART_UPDATE_FAILED,
  useMergeCart,
  useRefreshSavedCart,
  useRemoveCartLine,
  useSavedCart,
  useSetSavedCart,
  useUpdateCartLine,
  useValidateCoupon,
  useVisitorCartQuote,
} from "./queries";

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

/** One cart, wherever it is kept: a visitor's in the browser, a customer's on the server. */
type CartApi = {
  /** The cart priced by the server; null while it loads or while this is not the user's cart. */
  cart: PricedCart | null;
  /** `line` names a product the cart does not hold yet. */
  changeQuantity: (productId: number, delta: number, line?: AddToCartLine) => Promise<void>;
  removeItem: (productId: number) => Promise<void>;
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
  toast.success(`Product "${name}" ${added ? "added to" : "removed from"} cart`, { id: CART_TOAST_ID });
}

const nameIn = (cart: PricedCart | null | undefined, productId: number) => cart?.items.find((item) => item.productId === productId)?.name;

/** A visitor's cart, kept in local storage under `cartItems` and priced by the server (SPEC section 4). */
function useLocalCart(active: boolean): CartApi {
  const localItems = useLocalCartItems();
  const quote = useVisitorCartQuote(
    localItems.map(({ productId, quantity }) => ({ productId, quantity })),
    active && localItems.length > 0,
  );

  // Products the shop no longer sells leave the visitor's cart.
  useEffect(() => {
    const gone = quote.data?.unavailableProductIds ?? [];
    if (gone.length === 0) return;
    const current = readLocalCart();
    const kept = current.filter((item) => !gone.includes(item.productId));
    if (kept.length !== current.length) writeLocalCart(kept);
  }, [quote.data]);

  const cart = active ? (localItems.length === 0 ? emptyCart : (quote.data ?? null)) : null;

  const changeQuantity = useCallback(
    async (productId: number, delta: number, fallback?: AddToCartLine) => {
      const items = readLocalCart();
      const existing = items.find((item) => item.productId === productId);
      const line = cart?.items.find((item) => item.productId === productId);
      const name = line?.name ?? existing?.name ?? fallback?.name ?? "";
      const wanted = (existing?.quantity ?? 0) + delta;
      if (!existing && wanted > 0 && items.length >= MAX_CART_LINES) {
        toast.error(CART_UPDATE_FAILED, { id: CART_TOAST_ID, description: CART_FULL_MESSAGE });
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
        toast.warning(`Only ${line.stock} of "${name}" in stock: your cart holds ${Math.max(next, 0)}.`, { id: CART_TOAST_ID });
      } else {
        announce(name, delta > 0 && next > 0);
      }
    },
    [cart],
  );

  const removeItem = useCallback(
    async (productId: number) => {
      const name = nameIn(cart, productId) ?? "";
      writeLocalCart(readLocalCart().filter((item) => item.productId !== productId));
      announce(name, false);
    },
    [cart],
  );

  return useMemo(() => ({ cart, changeQuantity, removeItem }), [cart, changeQuantity, removeItem]);
}

/**
 * A customer's cart, saved on the server (SPEC section 4). On sign-in the local cart is merged into it, emptied
 * and the saved cart refetched. A failed change shows the cart's toast through the mutation cache.
 */
function useServerCart(isSignedIn: boolean, couponCode: string | null): CartApi {
  const localItems = useLocalCartItems();
  const mergedForSession = useRef(false);
  const { mutateAsync: merge } = useMergeCart(false);
  const { mutateAsync: update } = useUpdateCartLine();
  const { mutateAsync: remove } = useRemoveCartLine();
  const refreshSavedCart = useRefreshSavedCart();
  const setSavedCart = useSetSavedCart();
  // While a visitor's local cart waits to be merged, the saved cart is not final yet.
  const savedCart = useSavedCart(couponCode, isSignedIn && localItems.length === 0);

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
        void refreshSavedCart();
      });
  }, [isSignedIn, merge, refreshSavedCart]);

  const cart = isSignedIn ? (savedCart.data ?? null) : null;

  const changeQuantity = useCallback(async (productId: number, delta: number, fallback?: AddToCartLine) => {
    try {
      const result = await update({ update: { productId, quantity: delta }, ...(couponCode ? { couponCode } : {}) });
      setSavedCart(couponCode, result.cart);
      const name = nameIn(result.cart, productId) ?? nameIn(cart, productId) ?? fallback?.name ?? "";
      if (result.notice) toast.warning(result.notice, { id: CART_TOAST_ID });
      else announce(name, delta > 0 && result.cart.items.some((i) => i.productId === productId));
    } catch {
      // The mutation cache has shown the cart's toast.
    }
  }, [update, setSavedCart, couponCode, cart]);

  const removeItem = useCallback(async (productId: number) => {
    const name = nameIn(cart, productId) ?? "";
    try {
      const next = await remove({ productId, ...(couponCode ? { couponCode } : {}) });
      setSavedCart(couponCode, next);
      announce(name, next.items.some((i) => i.productId === productId));
    } catch {
      // The mutation cache has shown the cart's toast.
    }
  }, [remove, setSavedCart, couponCode, cart]);

  return useMemo(() => ({ cart, changeQuantity, removeItem }), [cart, changeQuantity, removeItem]);
}

/**
 * The cart (SPEC sections 4, 7 and 8): the visitor's local cart or the customer's server cart, by session, behind
 * one interface; customers' carts are refetched on focus and every 30 s.
 */
export function CartProvider({ children }: { children: ReactNode }) {
  const { status } = useSession();
  const isSignedIn = status === "authenticated";
  const localItems = useLocalCartItems();
  const [couponCode, setCouponCode] = useState<string | null>(null);
  const [isValidatingCoupon, setValidatingCoupon] = useState(false);
  const [pending, setPending] = useState<ReadonlySet<number>>(new Set());
  const { mutateAsync: validate } = useValidateCoupon();
  const setSavedCart = useSetSavedCart();

  const localCart = useLocalCart(status === "unauthenticated");
  const serverCart = useServerCart(isSignedIn, couponCode);
  const { cart, changeQuantity: change, removeItem: remove } = isSignedIn ? serverCart : localCart;

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

  const applyCoupon = useCallback(
    async (code: string) => {
      setValidatingCoupon(true);
      try {
        const result = await validate({ code });
        setSavedCart(result.coupon.code, result.cart);
        setCouponCode(result.coupon.code);
        return null;
      } catch (error) {
        return messageOf(error);
      } finally {
        setValidatingCoupon(false);
      }
    },
    [validate, setSavedCart],
  );

  const value = useMemo<CartContextValue>(() => ({
    cart,
    isLoading: cart === null,
    isSignedIn,
    itemCount: cart?.itemCount ?? localItems.reduce((sum, item) => sum + item.quantity, 0),
    pendingProductIds: pending,
    addToCart: (line) => track(line.productId, () => change(line.productId, 1, line)),
    changeQuantity: (productId, delta) => track(productId, () => change(productId, delta)),
    removeItem: (productId) => track(productId, () => remove(productId)),
    couponCode,
    isValidatingCoupon,
    applyCoupon,
    removeCoupon: () => setCouponCode(null),
  }), [cart, isSignedIn, localItems, pending, track, change, remove, couponCode, isValidatingCoupon, applyCoupon]);

  return <CartContext.Provider value={value}>{children}</CartContext.Provider>;
}

export function useCart(): CartContextValue {
  const context = useContext(CartContext);
  if (!context) throw new Error("useCart must be used within a CartProvider");
  return context;
}
