import "server-only";
import type { PGlite } from "@electric-sql/pglite";
import { sql, type SQL } from "drizzle-orm";
import { fromDrizzle, fromPglite, PgBoss, type ConstructorOptions, type Db as JobSqlExecutor } from "pg-boss";
import type { Database, Db } from "@/server/db/client";
import { rawRows } from "@/server/db/raw-rows";
import { moveV10Jobs, setAsideV10Schema } from "./v10-upgrade";

export type { JobSqlExecutor };

/** pg-boss keeps its tables (queue, job, schedule, ...) in a schema of their own, beside the shop's. */
export const JOB_SCHEMA = "pgboss";

/** A finished or failed job stays where staff can see it (and retry a failed one) for a week; pg-boss then deletes it. */
export const KEEP_FINISHED_SECONDS = 7 * 24 * 60 * 60;

/** pg-boss's statements on a Drizzle handle, so that a job queued in a transaction is part of it. */
export function drizzleExecutor(db: Db): JobSqlExecutor {
  return fromDrizzle({ execute: async (query) => ({ rows: await rawRows(db, query as SQL) }) }, sql);
}

/**
 * How pg-boss reaches the database: on PostgreSQL through a small pool of its own (its scripts and polling stay off
 * the shop's pool), on PGlite through the one in-process connection, which it shares with the shop. PGlite queues
 * every statement behind a running transaction, so the two never interleave.
 */
export function connectionFor(database: Database, poolSize: number): ConstructorOptions {
  if (database.kind === "postgres") return { connectionString: database.url, max: poolSize, application_name: "shop-jobs" };
  // drizzle's PGlite database carries its client; client.ts keeps it behind the Db type.
  return { backend: "pglite", db: fromPglite((database.db as unknown as { $client: PGlite }).$client) };
}

/**
 * Creates pg-boss's schema, or brings it to this pg-boss version, and moves the jobs of a database that pg-boss 10
 * kept (`v10-upgrade.ts`); safe to run from several instances at once (pg-boss takes an advisory lock, and so does
 * the move). Migrations run it before the worker starts, and for databases without a worker (tests, the command
 * line), since queuing a job needs the tables.
 */
export async function installJobQueue(database: Database): Promise<void> {
  await setAsideV10Schema(database.db, JOB_SCHEMA);
  const boss = new PgBoss({ ...connectionFor(database, 1), schema: JOB_SCHEMA, supervise: false, schedule: false, migrate: true, registerInstance: false });
  await boss.start();
  await boss.stop({ graceful: false });
  await moveV10Jobs(database.db, JOB_SCHEMA, KEEP_FINISHED_SECONDS);
}
