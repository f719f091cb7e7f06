import "server-only";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { fuzzystrmatch } from "@electric-sql/pglite/contrib/fuzzystrmatch";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { Client, Pool, type ClientConfig } from "pg";
import { env } from "@/env";
import { logger } from "@/server/logger";
import { ensurePrivateFolder } from "@/server/config/private-folder";
import { lockDatabaseFolder } from "./lock";
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

/**
 * LISTEN needs a connection of its own that stays open, outside the pool. A lost connection is tried again every
 * LISTEN_RETRY_MS until the server answers, however long it is away (a refused try is not the end of it).
 */
function listenOnPostgres(url: string, channel: string, handlers: ListenHandlers): Promise<() => Promise<void>> {
  let client: Client | null = null;
  let stopped = false;
  const retry = () => {
    if (!stopped) setTimeout(() => void connect(true).catch(retryAfterFailure), LISTEN_RETRY_MS).unref();
  };
  const retryAfterFailure = (error: unknown) => {
    logger.debug({ err: error }, `listening connection for ${channel} not back yet`);
    retry();
  };
  const connect = async (reconnecting: boolean): Promise<void> => {
    const next = new Client({ connectionString: url });
    next.on("notification", (message) => {
      if (message.channel === channel) handlers.onMessage(message.payload ?? "");
    });
    let lost = false;
    next.on("error", (error) => {
      // One retry per connection, however many errors its end brings.
      if (lost) return;
      lost = true;
      logger.warn({ err: error }, `listening connection for ${channel} lost`);
      void next.end().catch(() => undefined);
      if (client === next) client = null;
      retry();
    });
    try {
      await next.connect();
      await next.query(`listen ${channel}`);
    } catch (error) {
      void next.end().catch(() => undefined);
      throw error;
    }
    if (stopped) {
      await next.end().catch(() => undefined);
      return;
    }
    client = next;
    if (reconnecting) handlers.onReconnect();
  };
  return connect(false).then(() => async () => {
    stopped = true;
    await client?.end();
  });
}

/**
 * How long PostgreSQL may keep a caller waiting: for a connection from the pool (or a new one), and for one statement.
 * The statement limit is kept twice: by the server (`statement_timeout`, which cancels the statement and keeps the
 * connection), and by the client (`query_timeout`), which is what still answers when the server itself is stalled: a
 * frozen server or a network partition enforces nothing, and without it every request would wait for the kernel's
 * TCP timeout, minutes later (RELIABILITY-REVIEW D3).
 */
export type DatabaseTimeouts = { connectMs: number; statementMs: number };

/**
 * A pool connection that gives up its socket when a statement's time ran out on the client's side: the statement may
 * still be running (or the server stalled), so the connection is not used again; the pool then opens a new one. A
 * connection's errors are logged: each also fails the statements waiting on it, which is where callers see them.
 */
class ShopClient extends Client {
  constructor(config?: string | ClientConfig) {
    super(config);
    this.on("error", (error) => logger.warn({ err: error }, "database connection lost"));
    const query = this.query.bind(this) as (...args: unknown[]) => unknown;
    this.query = ((...args: unknown[]) => {
      const result = query(...args);
      if (result instanceof Promise) result.catch((error: unknown) => this.dropOnReadTimeout(error));
      return result;
    }) as Client["query"];
  }

  private dropOnReadTimeout(error: unknown): void {
    if (error instanceof Error && error.message === "Query read timeout") (this as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
  }
}

function openPostgresPool(url: string, timeouts: DatabaseTimeouts | null): Pool {
  return new Pool({
    connectionString: url,
    max: 10,
    Client: ShopClient,
    keepAlive: true,
    ...(timeouts
      ? {
          connectionTimeoutMillis: timeouts.connectMs,
          statement_timeout: timeouts.statementMs,
          query_timeout: timeouts.statementMs,
          // A transaction left open by a caller that went away holds its locks no longer than a statement may run.
          idle_in_transaction_session_timeout: timeouts.statementMs,
        }
      : {}),
  });
}

/**
 * Opens PostgreSQL when a URL is given, and PGlite (in `dataDir`, or in memory) otherwise. PostgreSQL's waits are
 * bounded by `timeouts` when given (the server's own settings, DATABASE_*_TIMEOUT_MS); tools that run long
 * statements on purpose (the seed, the benches) leave them out. PGlite runs in this process and has none to bound.
 */
export function openDatabase(options: { url?: string; dataDir?: string; timeouts?: DatabaseTimeouts }): Database {
  if (options.url) {
    const pool = openPostgresPool(options.url, options.timeouts ?? null);
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
export function openPglite(dataDir?: string, options: { loadDataDir?: Blob; lockHeld?: boolean } = {}): { client: PGlite; close: () => Promise<void> } {
  const extensions = { pg_trgm, fuzzystrmatch };
  if (!dataDir) {
    const client = new PGlite("memory://", { extensions, loadDataDir: options.loadDataDir });
    return { client, close: () => client.close() };
  }
  ensurePrivateFolder(dataDir);
  // A caller that holds the folder's lock already (a restore, replacing it) opens it under that lock.
  const release = options.lockHeld ? () => {} : lockDatabaseFolder(dataDir);
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

/** The server's bounds on database waits, as configured. */
export function configuredTimeouts(): DatabaseTimeouts {
  return { connectMs: env.DATABASE_CONNECT_TIMEOUT_MS, statementMs: env.DATABASE_STATEMENT_TIMEOUT_MS };
}

/**
 * The process's database. A server bounds its waits (`configuredTimeouts`); a command-line tool whose statements run
 * long on purpose (seeding a large catalogue) opens it first with `{ longStatements: true }`.
 */
export function getDatabase(options: { longStatements?: boolean } = {}): Database {
  if (!globalForDb.shopDatabase) {
    // The database's folder sits in the data folder, which holds the generated secrets too: both owner-only.
    if (!env.DATABASE_URL) ensurePrivateFolder(path.resolve(env.DATA_DIR));
    globalForDb.shopDatabase = openDatabase({
      url: env.DATABASE_URL,
      dataDir: embeddedDatabaseFolder(env.DATA_DIR),
      ...(options.longStatements ? {} : { timeouts: configuredTimeouts() }),
    });
  }
  return globalForDb.shopDatabase;
}

export function getDb(): Db {
  return getDatabase().db;
}
