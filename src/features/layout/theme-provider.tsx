"use client";

import { ThemeProvider as NextThemesProvider } from "next-themes";
import type { ReactNode } from "react";

/** Light, dark or system; light by default; kept under `theme-mode` (SPEC section 2). */
export function ThemeProvider({ children }: { children: ReactNode }) {
  return (
    <NextThemesProvider attribute="class" defaultTheme="light" enableSystem storageKey="theme-mode" disableTransitionOnChange>
      {children}
    </NextThemesProvider>
  );
}
