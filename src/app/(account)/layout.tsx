import type { ReactNode } from "react";
import ShopLayout from "@/app/(shop)/layout";

// The shop layout reads the banner and menus from the database, so no page here can be rendered at build time.
export const dynamic = "force-dynamic";

// Sign-in, cart and account pages are shop pages: the same banner, navigation and footer (SPEC section 2).
export default function AccountGroupLayout({ children }: { children: ReactNode }) {
  return <ShopLayout>{children}</ShopLayout>;
}
