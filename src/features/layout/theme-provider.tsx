"use client";

import { ThemeProvider as NextThemesProvider } from "next-themes";
import type { ReactNode } from "react";

/**
 * Light, dark or system; light by default; kept under `theme-mode` (SPEC section 2). `nonce` lets the theme's
 * inline script run on pages whose Content-Security-Policy carries one.
 */
export function ThemeProvider({ children, nonce }: { children: ReactNode; nonce?: string }) {
  return (
    <NextThemesProvider attribute="class" defaultTheme="light" enableSystem storageKey="theme-mode" nonce={nonce}>
      {children}
    </NextThemesProvider>
  );
}
