import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrationsFolder, readSchemaVersion, runMigrations } from "@/server/db/migrate";
import { createTestDatabase, queryRows, type TestDatabase } from "../../../tests/helpers/test-database";

type Journal = { entries: { tag: string }[] };
const journal = JSON.parse(readFileSync(path.join(migrationsFolder, "meta", "_journal.json"), "utf8")) as Journal;
const newest = journal.entries.at(-1)?.tag;

async function appliedCount(t: TestDatabase): Promise<number> {
  const rows = await queryRows<{ count: string | number }>(
    t.db,
    sql`select count(*) as count from drizzle.__drizzle_migrations`,
  );
  return Number(rows[0]?.count);
}

async function publicTables(t: TestDatabase): Promise<string[]> {
  const rows = await queryRows<{ table_name: string }>(
    t.db,
    sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
  );
  return rows.map((row) => row.table_name);
}

describe("migrations", () => {
  let t: TestDatabase;

  beforeAll(async () => {
    t = await createTestDatabase({ migrate: false });
  });

  afterAll(async () => {
    await t?.dispose();
  });

  it("a fresh database starts empty", async () => {
    expect(await publicTables(t)).toEqual([]);
  });

  it("apply on a fresh database and report the schema up to date", async () => {
    await runMigrations(t.database);

    expect(await appliedCount(t)).toBe(journal.entries.length);
    expect(await publicTables(t)).toEqual(expect.arrayContaining(["product", "order", "user", "logbook"]));
    expect(await readSchemaVersion(t.database)).toEqual({
      current: newest,
      applied: journal.entries.length,
      expected: newest,
      upToDate: true,
    });
  });

  it("are idempotent: applying them again twice changes nothing and does not fail", async () => {
    const tablesBefore = await publicTables(t);

    await runMigrations(t.database);
    await runMigrations(t.database);

    expect(await appliedCount(t)).toBe(journal.entries.length);
    expect(await publicTables(t)).toEqual(tablesBefore);
    expect((await readSchemaVersion(t.database)).upToDate).toBe(true);
  });

  it("leave a usable database: a row goes in and comes out", async () => {
    await t.db.execute(sql`insert into product_category (name) values ('Movements')`);
    const rows = await queryRows<{ name: string }>(t.db, sql`select name from product_category`);
    expect(rows.map((row) => row.name)).toEqual(["Movements"]);
  });
});
