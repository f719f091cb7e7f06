import { randomBytes } from "node:crypto";
import type { SQL } from "drizzle-orm";
import { Client } from "pg";
import { openDatabase, type Database, type Db } from "@/server/db/client";
import { runMigrations } from "@/server/setup/migrate";
import { rawRows } from "@/server/db/raw-rows";
import { perFile } from "./per-file";

/**
 * A fresh database for one test file (ARCHITECTURE section 6).
 *
 * - With `TEST_DATABASE_URL` set (a PostgreSQL address; CI sets it to the local server) a new, uniquely named
 *   database is created on that server and dropped again by `dispose()`.
 * - Otherwise an in-memory PGlite, so a fresh clone passes with no server installed.
 *
 * Both are migrated unless `{ migrate: false }` is asked for. A test file declares its database once, at the top:
 *
 *   const t = databaseForFile();
 *
 * and reads `t.db` in its tests and hooks (`createTestDatabase` is for a test that opens databases of its own).
 */
export type TestDatabase = {
  db: Db;
  database: Database;
  /** Closes the connections and, on PostgreSQL, drops the database. Safe to call twice. */
  dispose: () => Promise<void>;
};

export async function createTestDatabase(options: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  const database = serverUrl ? await createPostgresDatabase(serverUrl) : openPglite();
  try {
    if (options.migrate !== false) await runMigrations(database.database);
  } catch (error) {
    await database.dispose();
    throw error;
  }
  return database;
}

/** The file's database: created before its first test (and `seed` run on it), disposed after its last. */
export function databaseForFile(options: { migrate?: boolean; seed?: (db: Db) => Promise<unknown> } = {}): TestDatabase {
  return perFile(
    async () => {
      const database = await createTestDatabase(options);
      await options.seed?.(database.db);
      return database;
    },
    (database) => database.dispose(),
  );
}

function openPglite(): TestDatabase {
  const database = openDatabase({});
  let closed = false;
  return {
    db: database.db,
    database,
    dispose: async () => {
      if (closed) return;
      closed = true;
      await database.close();
    },
  };
}

async function createPostgresDatabase(serverUrl: string): Promise<TestDatabase> {
  // Lower case letters and digits only, so the name needs no quoting anywhere.
  const name = `test_${Date.now().toString(36)}_${randomBytes(6).toString("hex")}`;
  await withAdminClient(serverUrl, (client) => client.query(`CREATE DATABASE ${name}`));

  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = openDatabase({ url: url.toString() });
  let disposed = false;
  return {
    db: database.db,
    database,
    dispose: async () => {
      if (disposed) return;
      disposed = true;
      try {
        await database.close();
      } finally {
        // FORCE ends connections a test left open (PostgreSQL 13 and later).
        await withAdminClient(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
      }
    },
  };
}

async function withAdminClient<T>(serverUrl: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Runs raw SQL and returns its rows, on PostgreSQL and PGlite alike (their drivers shape results differently). */
export async function queryRows<T extends Record<string, unknown>>(db: Db, query: SQL): Promise<T[]> {
  return rawRows<T>(db, query);
}
