"use client";

import { SessionProvider } from "next-auth/react";
import { lazy, Suspense, type ReactNode } from "react";
import { CartProvider } from "@/features/cart/cart-context";
import { useIdle } from "@/lib/use-idle";

const VisitorTokenManager = lazy(() => import("./visitor-token"));

/**
 * The session, the visitor token and the cart, for every page; sits inside the API provider. The visitor token
 * (and the country kept with it) is not needed for the first paint, so its code loads once the page is idle.
 */
export function AccountProviders({ country, children }: { country: string | null; children: ReactNode }) {
  const idle = useIdle();
  return (
    <SessionProvider basePath="/api/auth">
      {idle ? (
        <Suspense>
          <VisitorTokenManager country={country} />
        </Suspense>
      ) : null}
      <CartProvider>{children}</CartProvider>
    </SessionProvider>
  );
}
