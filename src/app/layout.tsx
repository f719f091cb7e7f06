import type { Metadata, Viewport } from "next";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import { env } from "@/env";
import { ToastHost } from "@/components/toast";
import { ApiProvider } from "@/lib/trpc/client";
import { shopIdentity } from "@/lib/shop";
import { OrganizationJsonLd } from "@/features/layout/organization-json-ld";
import { ThemeProvider } from "@/features/layout/theme-provider";
import { AccountProviders } from "@/features/auth/providers";
import { shopUrl } from "@/server/config/shop-url";
import { countryFromRequest } from "@/server/maps/service";
import "./globals.css";

/** Metadata per request, since its base (share pictures, canonical links) is the running shop's address. */
export const generateMetadata = (): Metadata => ({
  metadataBase: new URL(shopUrl()),
  title: { default: `${env.SHOP_NAME} — ${shopIdentity.title}`, template: `%s | ${env.SHOP_NAME}` },
  description: shopIdentity.description,
  keywords: shopIdentity.keywords,
  applicationName: env.SHOP_NAME,
  // Storefront SEO (issue 3): the logo as the default share picture, and the mark as the icon.
  openGraph: { type: "website", siteName: env.SHOP_NAME, images: [{ url: "/logo.png", width: 988, height: 504, alt: env.SHOP_NAME }] },
  icons: { icon: "/logo-light.svg" },
});

export const viewport: Viewport = {
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: "#faf8f4" },
    { media: "(prefers-color-scheme: dark)", color: "#0f1012" },
  ],
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  const requestHeaders = await headers();
  const country = countryFromRequest(requestHeaders);
  // Set by src/proxy.ts on pages rendered per person; catalogue pages have none (their policy allows inline script).
  const nonce = requestHeaders.get("x-nonce") ?? undefined;
  return (
    <html lang="en" suppressHydrationWarning>
      <body className="min-h-dvh">
        <OrganizationJsonLd shopUrl={shopUrl()} />
        <ThemeProvider nonce={nonce}>
          <ApiProvider>
            {/* Session, visitor token and cart (accounts and cart). */}
            <AccountProviders country={country}>
              {children}
              <ToastHost />
            </AccountProviders>
          </ApiProvider>
        </ThemeProvider>
      </body>
    </html>
  );
}
