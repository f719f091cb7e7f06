import type { MetadataRoute } from "next";
import { shopUrl } from "@/server/config/shop-url";
import { listProductsForSitemap } from "@/server/catalog/service";
import { getDb } from "@/server/db/client";

// Read from the database and the running shop's address at request time, never at build time (the build has no
// catalogue, and its address is not the one the shop runs on).
export const dynamic = "force-dynamic";

/** The most addresses one sitemap file may hold. */
const SITEMAP_LIMIT = 50_000;

/** The home and search pages and every product on the web shop. */
export default async function sitemap(): Promise<MetadataRoute.Sitemap> {
  const base = shopUrl();
  const products = await listProductsForSitemap(getDb(), { offset: 0, limit: SITEMAP_LIMIT - 2 });
  return [
    { url: `${base}/`, changeFrequency: "daily", priority: 1 },
    { url: `${base}/search`, changeFrequency: "daily", priority: 0.8 },
    ...products.map((product) => ({ url: `${base}/product/${product.id}`, lastModified: product.updatedAt, changeFrequency: "weekly" as const, priority: 0.6 })),
  ];
}
