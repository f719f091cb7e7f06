import type { NextConfig } from "next";
// Order matters: the embedded defaults fill in missing configuration before src/env validates it, so that an
// invalid configuration stops both the build and the server with "Invalid environment variables".
import "./src/server/config/apply-embedded-defaults";
import "./src/env";

const nextConfig: NextConfig = {
  // PGlite loads its WebAssembly and data files from its package folder; bundling it breaks those paths.
  serverExternalPackages: ["@electric-sql/pglite", "@google-cloud/storage", "pino", "sharp"],
  poweredByHeader: false,
  // forbidden() answers signed-in customers on /admin with the 403 page and a real 403 status.
  experimental: { authInterrupts: true },
  images: {
    deviceSizes: [640, 750, 828, 1080, 1200, 1920, 2048, 3840],
    imageSizes: [16, 32, 48, 64, 96, 128, 256, 384],
    qualities: [75],
    formats: ["image/webp"],
    remotePatterns: [{ protocol: "https", hostname: "storage.googleapis.com" }],
  },
};

export default nextConfig;
