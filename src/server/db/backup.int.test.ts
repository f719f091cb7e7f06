import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandboxStorage } from "@/server/integrations/storage/sandbox";
import { createTestDatabase, queryRows, type TestDatabase } from "../../../tests/helpers/test-database";
import { backupDatabase, restoreDatabase } from "./backup";
import { openDatabase, type Db } from "./client";
import { runMigrations } from "./migrate";
import { seedDatabase } from "./seed/seed";

let workDir: string;

beforeAll(() => {
  workDir = mkdtempSync(path.join(os.tmpdir(), "db-backup-"));
});

afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

/** How many rows each table of the shop holds, the migrations' own bookkeeping included. */
async function rowCounts(db: Db): Promise<Record<string, number>> {
  const tables = await queryRows<{ name: string }>(
    db,
    sql`select table_schema || '.' || table_name as name from information_schema.tables
        where table_schema in ('public', 'drizzle') and table_type = 'BASE TABLE' order by 1`,
  );
  const counts: Record<string, number> = {};
  for (const { name } of tables) {
    const [schemaName, tableName] = name.split(".");
    const [row] = await queryRows<{ count: string | number }>(db, sql.raw(`select count(*) as count from "${schemaName}"."${tableName}"`));
    counts[name] = Number(row?.count);
  }
  return counts;
}

async function seedDemo(db: Db): Promise<void> {
  await seedDatabase(db, createSandboxStorage({ root: path.join(workDir, "storage") }), { products: 20, images: 0 });
}

describe("backup and restore of the embedded database", () => {
  it("restores into a fresh folder with the same rows in every table; never from under an open database", async () => {
    const source = path.join(workDir, "source", "pglite");
    const database = openDatabase({ dataDir: source });
    let counts: Record<string, number>;
    try {
      await runMigrations(database);
      await seedDemo(database.db);
      counts = await rowCounts(database.db);
      await expect(backupDatabase({ kind: "pglite", dataDir: source }, path.join(workDir, "torn.tar.gz"))).rejects.toThrow(
        "database folder in use",
      );
    } finally {
      await database.close();
    }
    expect(counts["public.product"]).toBe(20);

    const file = path.join(workDir, "backups", "shop.tar.gz");
    const backup = await backupDatabase({ kind: "pglite", dataDir: source }, file);
    expect(backup.bytes).toBeGreaterThan(0);
    expect(statSync(file).mode & 0o077).toBe(0);

    const target = path.join(workDir, "fresh", "pglite");
    expect(await restoreDatabase({ kind: "pglite", dataDir: target }, file)).toEqual({ replacedFolder: null });
    const restored = openDatabase({ dataDir: target });
    try {
      expect(await rowCounts(restored.db)).toEqual(counts);
    } finally {
      await restored.close();
    }

    await expect(restoreDatabase({ kind: "pglite", dataDir: target }, file)).rejects.toThrow("already holds a database");
    const { replacedFolder } = await restoreDatabase({ kind: "pglite", dataDir: target }, file, { force: true });
    expect(replacedFolder && existsSync(path.join(replacedFolder, "PG_VERSION"))).toBe(true);
  }, 240_000);
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("backup and restore on PostgreSQL", () => {
  let source: TestDatabase;
  let target: TestDatabase;

  beforeAll(async () => {
    source = await createTestDatabase();
    target = await createTestDatabase({ migrate: false });
  });

  afterAll(async () => {
    await source?.dispose();
    await target?.dispose();
  });

  it("restores into an empty database with the same rows in every table, and over one that has tables only with force", async () => {
    await seedDemo(source.db);
    const counts = await rowCounts(source.db);
    const file = path.join(workDir, "shop.pgdump");

    await backupDatabase({ kind: "postgres", url: source.database.url! }, file);
    await restoreDatabase({ kind: "postgres", url: target.database.url! }, file);

    expect(await rowCounts(target.db)).toEqual(counts);
    await expect(restoreDatabase({ kind: "postgres", url: target.database.url! }, file)).rejects.toThrow("already has");
    await restoreDatabase({ kind: "postgres", url: target.database.url! }, file, { force: true });
    expect(await rowCounts(target.db)).toEqual(counts);
    await expect(restoreDatabase({ kind: "pglite", dataDir: path.join(workDir, "other", "pglite") }, file)).rejects.toThrow(
      "backup of a PostgreSQL database",
    );
  }, 120_000);
});
