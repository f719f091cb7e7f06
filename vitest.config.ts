import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = path.dirname(fileURLToPath(import.meta.url));

/**
 * One temporary data folder per test run, and the secrets that applyEmbeddedDefaults() would otherwise generate and
 * write there, made here in the main process so that parallel workers never race to write the secrets file.
 * Workers get these through `test.env`; tests/setup/test-env.ts then calls applyEmbeddedDefaults() in each worker,
 * which fills in the rest and keeps what is set. (Vitest may load this file more than once in one process, hence
 * a folder named by process id.)
 */
const dataDir = path.join(os.tmpdir(), `shop-vitest-${process.pid}`);
mkdirSync(dataDir, { recursive: true });
process.once("exit", () => rmSync(dataDir, { recursive: true, force: true }));
const secret = (name: string) => process.env[name] ?? randomBytes(32).toString("base64url");
const testEnv: Record<string, string> = {
  DATA_DIR: dataDir,
  LOG_LEVEL: process.env.LOG_LEVEL ?? "silent",
  AUTH_SECRET: secret("AUTH_SECRET"),
  TOKEN_SECRET: secret("TOKEN_SECRET"),
  WEBHOOK_SECRET: secret("WEBHOOK_SECRET"),
};

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@\//, replacement: `${path.join(root, "src")}/` },
      // The real package throws outside React Server Components.
      { find: /^server-only$/, replacement: path.join(root, "tests/helpers/server-only.ts") },
    ],
  },
  test: {
    env: testEnv,
    environment: "node",
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["src/**/*.test.ts", "src/**/*.test.tsx", "scripts/**/*.test.mjs"],
          exclude: ["src/**/*.int.test.ts", "node_modules/**"],
          setupFiles: ["tests/setup/test-env.ts"],
          testTimeout: 10_000,
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["src/**/*.int.test.ts", "tests/integration/**/*.test.ts"],
          setupFiles: ["tests/setup/test-env.ts"],
          // Each file has its own database (tests/helpers/test-database.ts), so files run in parallel, and more of
          // them than there are cores: they mostly wait on PostgreSQL. A worker keeps the modules it loaded from one
          // file to the next (isolate: false) instead of importing the server again for each of its eighty files;
          // tests/setup/test-env.ts puts back what a file changed.
          isolate: false,
          maxWorkers: 3,
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.e2e.ts"],
          // Starts the production build on a free port with a fresh embedded database; see the file.
          globalSetup: ["tests/e2e/global-setup.ts"],
          // One server and one browser at a time: journeys share the seeded shop.
          fileParallelism: false,
          // A page answers a click through the API and a refetch; on a loaded machine that takes more than the
          // default second that expect.poll waits.
          expect: { poll: { timeout: 10_000, interval: 100 } },
          testTimeout: 90_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
