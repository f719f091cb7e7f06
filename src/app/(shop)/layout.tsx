import type { ReactNode } from "react";
import { env } from "@/env";
import { BagIconDefinition } from "@/features/catalog/bag-icon";
import { Banner } from "@/features/layout/banner";
import { ClientFooter } from "@/features/layout/client-footer";
import { Navbar } from "@/features/layout/navbar";
import { ScrollRestoration } from "@/features/layout/scroll-restoration";
import { ShopMain } from "@/features/layout/shop-main";
import { getDb } from "@/server/db/client";
import { cachedNavbarData } from "@/server/navbar/visitor-cache";

/** Every path outside /admin: banner, navigation, the page and the footer (SPEC section 2). */
export default async function ShopLayout({ children }: { children: ReactNode }) {
  // Read on the server so the banner and menus are in the first paint; the menus' and the footer's query starts from this copy.
  const navbar = await cachedNavbarData(getDb());
  return (
    <div className="flex min-h-dvh flex-col">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded-md focus:bg-background focus:px-3 focus:py-2">
        Skip to content
      </a>
      {navbar.navbarBannerText ? <Banner text={navbar.navbarBannerText} /> : null}
      <Navbar shopName={env.SHOP_NAME} initialData={navbar} />
      <ShopMain>{children}</ShopMain>
      <ClientFooter shopName={env.SHOP_NAME} initialData={navbar} />
      <ScrollRestoration />
      <BagIconDefinition />
    </div>
  );
}
