import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";
import { seedDatabase } from "@/server/setup/seed/seed";
import { createSandboxStorage } from "@/server/integrations/storage/sandbox";
import { databaseForFile, type TestDatabase } from "./test-database";

/**
 * The file's database with the demo shop in it: its reference data (countries, shipping costs, settings, users) and
 * `products` demo products (none unless asked for), seeded as of `now`. The seed's pictures go to a folder of their
 * own, removed after the file's last test.
 */
export function seededDatabaseForFile(options: { now?: Date; products?: number } = {}): TestDatabase {
  const storageRoot = mkdtempSync(path.join(os.tmpdir(), "seeded-test-storage-"));
  afterAll(() => rmSync(storageRoot, { recursive: true, force: true }));
  return databaseForFile({
    seed: (db) => seedDatabase(db, createSandboxStorage({ root: storageRoot }), { products: options.products ?? 0, images: 0, now: options.now }),
  });
}
