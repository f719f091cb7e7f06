"use client";

import { usePathname } from "next/navigation";
import { useEffect, useRef } from "react";

const STORAGE_KEY = "scroll-positions";
/** How long to keep trying to restore while the page grows to its former height (images, streamed content). */
const RESTORE_FOR_MS = 1500;

function readPositions(): Record<string, number> {
  try {
    return JSON.parse(window.sessionStorage.getItem(STORAGE_KEY) ?? "{}") as Record<string, number>;
  } catch {
    return {};
  }
}

/**
 * Saves the scroll position per page path when the visitor leaves a page and restores it when they come back with
 * the browser's back or forward button (SPEC section 2). A fresh link click starts at the top as usual.
 */
export function ScrollRestoration() {
  const pathname = usePathname();
  const viaHistory = useRef(false);
  const lastY = useRef(0);

  useEffect(() => {
    const onPopState = () => {
      viaHistory.current = true;
    };
    // The position is read continuously because by the time the path changes the new page may have scrolled.
    const onScroll = () => {
      lastY.current = window.scrollY;
    };
    window.addEventListener("popstate", onPopState);
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => {
      window.removeEventListener("popstate", onPopState);
      window.removeEventListener("scroll", onScroll);
    };
  }, []);

  useEffect(() => {
    const path = pathname;
    if (viaHistory.current) {
      viaHistory.current = false;
      const target = readPositions()[path];
      if (target !== undefined) {
        const started = performance.now();
        const step = () => {
          window.scrollTo(0, target);
          if (Math.abs(window.scrollY - target) > 2 && performance.now() - started < RESTORE_FOR_MS) requestAnimationFrame(step);
        };
        requestAnimationFrame(step);
      }
    }
    lastY.current = window.scrollY;
    const save = () => {
      const positions = readPositions();
      positions[path] = lastY.current;
      window.sessionStorage.setItem(STORAGE_KEY, JSON.stringify(positions));
    };
    window.addEventListener("pagehide", save);
    return () => {
      // Leaving this path for another one.
      window.removeEventListener("pagehide", save);
      save();
    };
  }, [pathname]);

  return null;
}
