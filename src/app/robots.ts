import type { MetadataRoute } from "next";
import { shopUrl } from "@/server/config/shop-url";

// The address is the running shop's, not the build's.
export const dynamic = "force-dynamic";

/** Everything but the back office and the checkout is for search engines. */
export default function robots(): MetadataRoute.Robots {
  return {
    rules: [{ userAgent: "*", allow: "/", disallow: ["/admin", "/checkout", "/api/"] }],
    sitemap: `${shopUrl()}/sitemap.xml`,
  };
}
