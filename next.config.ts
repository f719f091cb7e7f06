import path from "node:path";
import type { NextConfig } from "next";
// Order matters: the embedded defaults fill in missing configuration before src/env validates it, so that an
// invalid configuration stops both the build and the server with "Invalid environment variables".
import "./src/server/config/apply-embedded-defaults";
import { env } from "./src/env";
import { alwaysHeaders, contentSecurityPolicy, personalPagePrefixes, strictTransportSecurity } from "./src/server/http/security-headers";

const development = process.env.NODE_ENV === "development";
// Pictures come through the shop's own image optimiser; only the configured bucket may be fetched by it (L4).
const imageBucket = env.GCS_BUCKET;
// Every path except the personal pages, whose policy with a nonce the proxy sets per request (src/proxy.ts).
const notPersonal = `/:path((?!(?:${personalPagePrefixes.map((prefix) => prefix.slice(1)).join("|")})(?:/|$)).*)`;

const nextConfig: NextConfig = {
  // PGlite loads its WebAssembly and data files from its package folder; bundling it breaks those paths.
  serverExternalPackages: ["@electric-sql/pglite", "@google-cloud/storage", "pino", "sharp", "pdfkit", "bwip-js", "pg-boss"],
  poweredByHeader: false,
  // `npm test` runs `next typegen` and tsc over the same files just before it builds (scripts/test.mjs): a second
  // TypeScript pass inside the build would find nothing new and cost half a minute of the two cores.
  typescript: { ignoreBuildErrors: process.env.SHOP_TYPES_CHECKED === "1" },
  // Next hashes the whole page in JavaScript on every answer to make an ETag: a fifth of the server's time on a
  // cached catalogue page. Browsers revalidate these pages after a second anyway (s-maxage=1, SPEC §7), and a CDN
  // in front keys on Cache-Control, so the 304 it would save is not worth a hash of every page sent.
  generateEtags: false,
  // Catalogue pages and their data, in memory and, with REDIS_URL, shared by every instance through Redis.
  cacheHandler: path.resolve(import.meta.dirname, "src/server/cache/next-cache-handler.mjs"),
  cacheMaxMemorySize: 0,
  // With a page's `revalidate = 1`: `Cache-Control: s-maxage=1, stale-while-revalidate=86400` (SPEC §7).
  expireTime: 86_401,
  experimental: {
    // forbidden() answers signed-in customers on /admin with the 403 page and a real 403 status.
    authInterrupts: true,
    // The only server actions are the sandbox pages' buttons, a few fields each: Next's 1 MB is more than they need,
    // and every body is read before anyone is known (SECURITY-REVIEW N-M3).
    serverActions: { bodySizeLimit: "16kb" },
  },
  images: {
    deviceSizes: [640, 750, 828, 1080, 1200, 1920, 2048, 3840],
    imageSizes: [16, 32, 48, 64, 96, 128, 256, 384],
    qualities: [75],
    formats: ["image/webp"],
    remotePatterns: imageBucket ? [{ protocol: "https", hostname: "storage.googleapis.com", pathname: `/${imageBucket}/**` }] : [],
  },
  async headers() {
    return [
      { source: "/:path*", headers: alwaysHeaders },
      { source: notPersonal, headers: [{ key: "Content-Security-Policy", value: contentSecurityPolicy({ development, imageBucket }) }] },
      // Over https only, as the front door lets a trusted proxy say (scripts/front-door.mjs).
      { source: "/:path*", has: [{ type: "header", key: "x-forwarded-proto", value: "https" }], headers: [{ key: "Strict-Transport-Security", value: strictTransportSecurity }] },
    ];
  },
};

export default nextConfig;
