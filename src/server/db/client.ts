import "server-only";
import path from "node:path";
import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { fuzzystrmatch } from "@electric-sql/pglite/contrib/fuzzystrmatch";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { Pool } from "pg";
import { env } from "@/env";
import { logger } from "@/server/logger";
import * as schema from "./schema";

export type Schema = typeof schema;
/** A database handle or a transaction: services take either, so a caller can compose them in one transaction. */
export type Db = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;

export type Database = {
  db: Db;
  kind: "postgres" | "pglite";
  /** The PostgreSQL address, for work that needs a connection of its own (migrations). */
  url?: string;
  close: () => Promise<void>;
};

/** Opens PostgreSQL when a URL is given, and PGlite (in `dataDir`, or in memory) otherwise. */
export function openDatabase(options: { url?: string; dataDir?: string }): Database {
  if (options.url) {
    const pool = new Pool({ connectionString: options.url, max: 10 });
    // An idle connection the server ends (a restart, a failover, a dropped test database) is only logged: without
    // this listener node-postgres rethrows it and takes the whole process down. The pool opens a new one when needed.
    pool.on("error", (error) => logger.warn({ err: error }, "idle database connection lost"));
    const db = drizzlePg({ client: pool, schema, casing: "snake_case" }) as unknown as Db;
    return { db, kind: "postgres", url: options.url, close: () => pool.end() };
  }
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const client = new PGlite(options.dataDir ?? "memory://", { extensions: { pg_trgm, fuzzystrmatch } });
  const db = drizzlePglite({ client, schema, casing: "snake_case" }) as unknown as Db;
  return { db, kind: "pglite", close: () => client.close() };
}

// One database per process: PGlite's data folder can only be opened once, and a pool per request would exhaust
// PostgreSQL. The handle lives on globalThis so that the development server's module reloads reuse it.
const globalForDb = globalThis as unknown as { shopDatabase?: Database };

export function getDatabase(): Database {
  globalForDb.shopDatabase ??= openDatabase({
    url: env.DATABASE_URL,
    dataDir: path.join(path.resolve(env.DATA_DIR), "pglite"),
  });
  return globalForDb.shopDatabase;
}

export function getDb(): Db {
  return getDatabase().db;
}
