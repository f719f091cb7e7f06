import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, vi } from "vitest";
import { applyEmbeddedDefaults } from "../../src/server/config/embedded-defaults";

// Runs before every unit and integration test file, ahead of its imports, so that `src/env.ts` validates.
// vitest.config.ts points DATA_DIR at a temporary folder made once per run (with its generated secrets); the fallback
// only matters when this file is used by a config that did not.
process.env.DATA_DIR ??= mkdtempSync(path.join(os.tmpdir(), "shop-test-"));
// A developer's own DATABASE_URL must never reach the code under test: tests get their database from
// tests/helpers/test-database.ts (PGlite, or a fresh database on TEST_DATABASE_URL's server).
delete process.env.DATABASE_URL;
applyEmbeddedDefaults();

// Integration files share their worker's modules (vitest.config.ts: isolate false), which saves each file seconds of
// importing the server. What one file changes must not reach the next: the environment it stubbed, the modules that
// read it (evaluated afresh for the next file; those from node_modules stay loaded and hold nothing of the shop's),
// and what the shop keeps on globalThis for the process (`shopDatabase`, `shopPayments`, `shopStorage`, ...), made
// with the configuration of the file that made them: a database one left open is closed. (`shopDatabaseLocks`, the
// folders this process holds locked, stays: it is the process's, as the lock files on disk are.)
const environmentAtStart = { ...process.env };
const globalsAtStart = new Set(Object.keys(globalThis));
afterAll(async () => {
  vi.unstubAllEnvs();
  for (const name of Object.keys(process.env)) if (!(name in environmentAtStart)) delete process.env[name];
  Object.assign(process.env, environmentAtStart);
  const shopGlobals = globalThis as Record<string, unknown>;
  for (const name of Object.keys(shopGlobals).filter((key) => key.startsWith("shop") && key !== "shopDatabaseLocks" && !globalsAtStart.has(key))) {
    if (name === "shopDatabase") await Promise.resolve().then(() => (shopGlobals[name] as { close(): Promise<void> }).close()).catch(() => undefined);
    delete shopGlobals[name];
  }
  vi.resetModules();
});
