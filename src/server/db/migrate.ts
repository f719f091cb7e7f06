import "server-only";
import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle } from "drizzle-orm/node-postgres";
import { Pool } from "pg";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import type { Database, Db, Schema } from "./client";
import * as schema from "./schema";
import { rawRows } from "./raw-rows";

export const migrationsFolder = path.join(process.cwd(), "drizzle");

// Any fixed number: several app instances starting together take turns applying migrations.
const MIGRATION_LOCK = 80_412_004;

/**
 * Applies every committed migration that the database does not have yet, then `afterwards` (data a migration left for
 * the domains to fill in, such as the cost layers of an older ledger) in one transaction, still under the lock that
 * keeps two instances from migrating at once. The job queue's tables come after them (`setup/migrate.ts`), since the
 * queue sits above the database.
 */
export async function migrateSchema(database: Database, afterwards?: (tx: Db) => Promise<void>): Promise<void> {
  if (database.kind === "pglite") {
    // One process owns a PGlite folder (`lockDatabaseFolder`): nobody else migrates it meanwhile.
    await migratePglite(database.db as unknown as PgliteDatabase<Schema>, { migrationsFolder });
    if (afterwards) await database.db.transaction(afterwards);
    return;
  }
  // A single connection, so that the session lock and the migrations share it.
  const pool = new Pool({ connectionString: database.url, max: 1 });
  try {
    const db = drizzle({ client: pool, casing: "snake_case", schema });
    await db.execute(sql`select pg_advisory_lock(${MIGRATION_LOCK})`);
    try {
      await migratePg(db, { migrationsFolder });
      if (afterwards) await db.transaction(afterwards);
    } finally {
      await db.execute(sql`select pg_advisory_unlock(${MIGRATION_LOCK})`);
    }
  } finally {
    await pool.end();
  }
}

type Journal = { entries: { idx: number; tag: string; when: number }[] };

function readJournal(): Journal {
  return JSON.parse(readFileSync(path.join(migrationsFolder, "meta", "_journal.json"), "utf8")) as Journal;
}

export type SchemaVersion = { current: string | null; applied: number; expected: string; upToDate: boolean };

/** Which migration the database is at, against the newest one this build ships. */
export async function readSchemaVersion(database: Database): Promise<SchemaVersion> {
  const journal = readJournal();
  const newest = journal.entries.at(-1);
  const list = await rawRows<{ created_at: string }>(database.db, sql`select created_at from drizzle.__drizzle_migrations order by created_at desc`);
  const latest = list[0] ? Number(list[0].created_at) : null;
  const current = journal.entries.find((entry) => entry.when === latest)?.tag ?? null;
  return {
    current,
    applied: list.length,
    expected: newest?.tag ?? "none",
    upToDate: newest ? latest === newest.when : true,
  };
}
