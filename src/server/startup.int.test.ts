import { mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { count } from "drizzle-orm";
import { afterAll, describe, expect, it, vi } from "vitest";

// prepareServer reads configuration on first import of src/env, so the environment is set before it is imported.
const dataDir = mkdtempSync(path.join(os.tmpdir(), "startup-"));
let cleanUp = async () => {};

afterAll(async () => {
  await cleanUp();
  vi.unstubAllEnvs();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("server start-up", () => {
  it("with live integrations on an empty database creates no demo users or products, in a private data folder", async () => {
    vi.stubEnv("INTEGRATIONS", "live");
    vi.stubEnv("DATA_DIR", dataDir);
    vi.stubEnv("SEED_DEMO", undefined);
    // What live integrations need outside production; nothing here sends mail.
    vi.stubEnv("AUTH_URL", "http://127.0.0.1:3000");
    vi.stubEnv("SMTP_URL", "smtp://127.0.0.1:2525");
    vi.stubEnv("MAIL_FROM", "shop@example.com");
    const { prepareServer } = await import("./startup");
    const { getDatabase } = await import("@/server/db/client");
    const schema = await import("@/server/db/schema");

    const stop = await prepareServer();
    const database = getDatabase();
    cleanUp = async () => {
      await stop();
      await database.close();
      delete (globalThis as { shopDatabase?: unknown }).shopDatabase;
    };

    const [users] = await database.db.select({ value: count() }).from(schema.user);
    const [products] = await database.db.select({ value: count() }).from(schema.product);
    expect(users?.value).toBe(0);
    expect(products?.value).toBe(0);
    expect(statSync(dataDir).mode & 0o077).toBe(0);
    expect(statSync(path.join(dataDir, "pglite")).mode & 0o077).toBe(0);
  }, 120_000);
});
