"use client";

import { SessionProvider } from "next-auth/react";
import { lazy, Suspense, useEffect, useState, type ReactNode } from "react";
import { CartProvider } from "@/features/cart/cart-context";

const VisitorTokenManager = lazy(() => import("./visitor-token"));

/** Waits for the browser's first idle moment, at most this long, before starting work the page does not show. */
const IDLE_TIMEOUT_MS = 2_000;

/** True once the page has loaded and the browser has had a quiet moment. */
function useIdle(): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    // Safari has no requestIdleCallback.
    if (!("requestIdleCallback" in window)) {
      const timer = setTimeout(() => setIdle(true), IDLE_TIMEOUT_MS / 2);
      return () => clearTimeout(timer);
    }
    const handle = window.requestIdleCallback(() => setIdle(true), { timeout: IDLE_TIMEOUT_MS });
    return () => window.cancelIdleCallback(handle);
  }, []);
  return idle;
}

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
