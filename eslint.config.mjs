import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const root = path.dirname(fileURLToPath(import.meta.url));

const featuresZone = {
  target: "./src/features",
  from: path.join(root, "src/server/**"),
  except: [path.join(root, "src/server/*/schemas.ts"), path.join(root, "src/server/*/*-schemas.ts")],
  message: "Features import a server domain's schemas.ts (types and zod schemas) or src/lib, nothing else from src/server.",
};
const serverZone = { target: "./src/server", from: "./src/features", message: "The server never imports UI code; share it through src/lib." };
const libZone = (except = []) => ({
  target: "./src/lib",
  from: "./src/server",
  except,
  message: "lib is shared with the browser and imports nothing from the server (lib/trpc: the AppRouter type only).",
});

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  {
    rules: {
      // A leading underscore marks a parameter or binding that is unused on purpose (an interface's argument, say).
      "@typescript-eslint/no-unused-vars": [
        "warn",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
    },
  },
  {
    // The layers (ARCHITECTURE section 2). The browser's code sees a server domain only through its schemas (zod
    // inputs and DTO types; admin-schemas.ts where staff have their own) and shares helpers through lib; the server
    // never reaches into the UI. Paths are matched after the `@/` alias is resolved.
    files: ["src/**/*.{ts,tsx}"],
    rules: {
      "import/no-restricted-paths": ["error", { zones: [featuresZone, serverZone, libZone()] }],
    },
  },
  {
    // The tRPC client needs the router's type; a type-only import leaves no server code in the browser's bundle.
    files: ["src/lib/trpc/**/*.{ts,tsx}"],
    rules: {
      "import/no-restricted-paths": ["error", { zones: [libZone(["./root.ts"])] }],
      "@typescript-eslint/no-restricted-imports": [
        "error",
        { paths: [{ name: "@/server/root", allowTypeImports: true, message: "lib/trpc may import only `type AppRouter` from the server." }] },
      ],
    },
  },
  globalIgnores([
    ".next/**",
    "node_modules/**",
    ".data/**",
    "drizzle/**",
    "next-env.d.ts",
    ".test-data/**",
    "coverage/**",
    "test-results/**",
  ]),
]);
