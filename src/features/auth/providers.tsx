"use client";

import { SessionProvider } from "next-auth/react";
import type { ReactNode } from "react";
import { CartProvider } from "@/features/cart/cart-context";
import { VisitorTokenManager } from "./visitor-token";

/** The session, the visitor token and the cart, for every page; sits inside the API provider. */
export function AccountProviders({ children }: { children: ReactNode }) {
  return (
    <SessionProvider basePath="/api/auth">
      <VisitorTokenManager />
      <CartProvider>{children}</CartProvider>
    </SessionProvider>
  );
}
