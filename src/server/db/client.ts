import "server-only";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { fuzzystrmatch } from "@electric-sql/pglite/contrib/fuzzystrmatch";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { Client, Pool } from "pg";
import { env } from "@/env";
import { logger } from "@/server/logger";
import { ensurePrivateFolder, lockDatabaseFolder } from "./lock";
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
  /** Receives the NOTIFY messages of a channel until the returned function is called. */
  listen: (channel: string, handlers: ListenHandlers) => Promise<() => Promise<void>>;
};

export type ListenHandlers = {
  onMessage: (payload: string) => void;
  /** The connection dropped and came back: messages sent meanwhile were lost. */
  onReconnect: () => void;
};

/** How long a lost listening connection waits before it connects again. */
const LISTEN_RETRY_MS = 1_000;

/** LISTEN needs a connection of its own that stays open, outside the pool. */
function listenOnPostgres(url: string, channel: string, handlers: ListenHandlers): Promise<() => Promise<void>> {
  let client: Client | null = null;
  let stopped = false;
  const connect = async (reconnecting: boolean): Promise<void> => {
    const next = new Client({ connectionString: url });
    next.on("notification", (message) => {
      if (message.channel === channel) handlers.onMessage(message.payload ?? "");
    });
    next.on("error", (error) => {
      logger.warn({ err: error }, `listening connection for ${channel} lost`);
      void next.end().catch(() => undefined);
      if (client === next) client = null;
      if (!stopped) setTimeout(() => void connect(true).catch(() => undefined), LISTEN_RETRY_MS).unref();
    });
    await next.connect();
    await next.query(`listen ${channel}`);
    client = next;
    if (reconnecting) handlers.onReconnect();
  };
  return connect(false).then(() => async () => {
    stopped = true;
    await client?.end();
  });
}

/** Opens PostgreSQL when a URL is given, and PGlite (in `dataDir`, or in memory) otherwise. */
export function openDatabase(options: { url?: string; dataDir?: string }): Database {
  if (options.url) {
    const pool = new Pool({ connectionString: options.url, max: 10 });
    // An idle connection the server ends (a restart, a failover, a dropped test database) is only logged: without
    // this listener node-postgres rethrows it and takes the whole process down. The pool opens a new one when needed.
    pool.on("error", (error) => logger.warn({ err: error }, "idle database connection lost"));
    const db = drizzlePg({ client: pool, schema, casing: "snake_case" }) as unknown as Db;
    const url = options.url;
    return { db, kind: "postgres", url, close: () => pool.end(), listen: (channel, handlers) => listenOnPostgres(url, channel, handlers) };
  }
  const { client, close } = openPglite(options.dataDir);
  const db = drizzlePglite({ client, schema, casing: "snake_case" }) as unknown as Db;
  return {
    db,
    kind: "pglite",
    close,
    // One process holds the embedded database, so nothing is ever lost in between.
    listen: async (channel, handlers) => {
      const stop = await client.listen(channel, handlers.onMessage);
      return () => stop();
    },
  };
}

/**
 * PGlite in a folder, or in memory without one. The folder is made private to its owner (PGlite writes its files
 * world-readable) and locked to this process until `close`; a second opener gets "database folder in use".
 * `loadDataDir` fills an empty folder from a `dumpDataDir()` tarball.
 */
export function openPglite(dataDir?: string, options: { loadDataDir?: Blob } = {}): { client: PGlite; close: () => Promise<void> } {
  const extensions = { pg_trgm, fuzzystrmatch };
  if (!dataDir) {
    const client = new PGlite("memory://", { extensions, loadDataDir: options.loadDataDir });
    return { client, close: () => client.close() };
  }
  ensurePrivateFolder(dataDir);
  const release = lockDatabaseFolder(dataDir);
  try {
    const client = new PGlite(dataDir, { extensions, loadDataDir: options.loadDataDir });
    return {
      client,
      close: async () => {
        try {
          await client.close();
        } finally {
          release();
        }
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}

// One database per process: PGlite's data folder can only be opened once, and a pool per request would exhaust
// PostgreSQL. The handle lives on globalThis so that the development server's module reloads reuse it.
const globalForDb = globalThis as unknown as { shopDatabase?: Database };

/** The embedded database's folder inside the data folder. */
export function embeddedDatabaseFolder(dataDir: string): string {
  return path.join(path.resolve(dataDir), "pglite");
}

export function getDatabase(): Database {
  if (!globalForDb.shopDatabase) {
    // The database's folder sits in the data folder, which holds the generated secrets too: both owner-only.
    if (!env.DATABASE_URL) ensurePrivateFolder(path.resolve(env.DATA_DIR));
    globalForDb.shopDatabase = openDatabase({ url: env.DATABASE_URL, dataDir: embeddedDatabaseFolder(env.DATA_DIR) });
  }
  return globalForDb.shopDatabase;
}

export function getDb(): Db {
  return getDatabase().db;
}
