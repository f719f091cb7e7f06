"use client";

import { useTheme } from "next-themes";
import { Toaster as Sonner, type ToasterProps } from "sonner";
import { useToastSwipeThreshold } from "../toast-swipe-threshold";

/** One toast at a time, 5 seconds, F8 to reach it, swiped away from 50 px, as SPEC section 9 says. */
export function Toaster(props: ToasterProps) {
  const { resolvedTheme } = useTheme();
  useToastSwipeThreshold();
  return (
    <Sonner
      theme={(resolvedTheme as ToasterProps["theme"]) ?? "light"}
      // Top centre: at the bottom a toast would cover the phone navigation bar and the admin forms' save bar. On a
      // phone it sits below a sheet's header, so the cart drawer's and login sheet's close buttons stay reachable.
      position="top-center"
      mobileOffset={{ top: 72 }}
      visibleToasts={1}
      duration={5000}
      hotkey={["F8"]}
      richColors
      closeButton
      className="toaster group"
      {...props}
    />
  );
}
export { toast } from "sonner";
