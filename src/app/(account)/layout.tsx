import type { ReactNode } from "react";
import ShopLayout from "@/app/(shop)/layout";

// Sign-in, cart and account pages are shop pages: the same banner, navigation and footer (SPEC section 2).
export default function AccountGroupLayout({ children }: { children: ReactNode }) {
  return <ShopLayout>{children}</ShopLayout>;
}
