import type { MetadataRoute } from "next";
import { env } from "@/env";

/** Everything but the back office and the checkout is for search engines. */
export default function robots(): MetadataRoute.Robots {
  const base = env.NEXT_PUBLIC_SERVER_URL.replace(/\/+$/, "");
  return {
    rules: [{ userAgent: "*", allow: "/", disallow: ["/admin", "/checkout", "/api/"] }],
    sitemap: `${base}/sitemap.xml`,
  };
}
