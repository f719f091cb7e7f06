"use client";

import { useEffect } from "react";

/** SPEC section 9: a toast is swiped away from 50 px on. */
export const TOAST_SWIPE_THRESHOLD_PX = 50;
/** sonner's own threshold, a constant it offers no option for (`SWIPE_THRESHOLD` in sonner 2). */
const SONNER_SWIPE_THRESHOLD_PX = 45;

/**
 * A swipe's distance as sonner should read it: one that reaches sonner's 45 px but not the SPEC's 50 is cut to just
 * under 45, so sonner keeps the toast; any other distance is left as it is.
 */
export function swipeForSonner(px: number): number {
  const distance = Math.abs(px);
  if (distance < SONNER_SWIPE_THRESHOLD_PX || distance >= TOAST_SWIPE_THRESHOLD_PX) return px;
  return Math.sign(px) * (SONNER_SWIPE_THRESHOLD_PX - 1);
}

/**
 * Holds sonner's toasts to the SPEC's threshold: on letting go, before sonner's own handler reads the swipe from the
 * toast's `--swipe-amount-x/y`, a distance short of 50 px is rewritten by `swipeForSonner`. The listener is on the
 * window in the capture phase, so it runs before React's, which sonner's handler is.
 */
export function useToastSwipeThreshold() {
  useEffect(() => {
    const onPointerUp = (event: PointerEvent) => {
      const toast = event.target instanceof Element ? event.target.closest<HTMLElement>("[data-sonner-toast]") : null;
      if (!toast) return;
      for (const axis of ["--swipe-amount-x", "--swipe-amount-y"]) {
        const px = Number.parseFloat(toast.style.getPropertyValue(axis)) || 0;
        const read = swipeForSonner(px);
        if (read !== px) toast.style.setProperty(axis, `${read}px`);
      }
    };
    window.addEventListener("pointerup", onPointerUp, true);
    return () => window.removeEventListener("pointerup", onPointerUp, true);
  }, []);
}
