import "server-only";
import type { PGlite } from "@electric-sql/pglite";
import { sql, type SQL } from "drizzle-orm";
import PgBoss from "pg-boss";
import type { Database, Db } from "@/server/db/client";
import { rawRows } from "@/server/db/raw-rows";

/** pg-boss keeps its tables (queue, job, archive, schedule) in a schema of their own, beside the shop's. */
export const JOB_SCHEMA = "pgboss";

/** The statement runner pg-boss takes as its `db` option. */
export type JobSqlExecutor = PgBoss.Db;

/**
 * pg-boss's statements run on a Drizzle handle, so that a job queued in a transaction is part of it. pg-boss numbers
 * its parameters ($1, $2, ...); each becomes one Drizzle parameter, in place, so both drivers bind them as pg-boss
 * meant. Only for single statements: pg-boss's multi-statement scripts (schema creation, maintenance) run on the
 * worker's own connection (`executorFor`).
 */
export function drizzleExecutor(db: Db): JobSqlExecutor {
  return {
    executeSql: async (text: string, values: unknown[] = []) => ({ rows: await rawRows(db, withParameters(text, values)) }),
  };
}

function withParameters(text: string, values: unknown[]): SQL {
  const chunks: SQL[] = [];
  let done = 0;
  for (const match of text.matchAll(/\$(\d+)/g)) {
    chunks.push(sql.raw(text.slice(done, match.index)));
    // sql.param keeps an array (a list of job ids) one parameter instead of Drizzle's expansion into a list.
    chunks.push(sql`${sql.param(values[Number(match[1]) - 1])}`);
    done = match.index + match[0].length;
  }
  chunks.push(sql.raw(text.slice(done)));
  return sql.join(chunks);
}

/**
 * PGlite is one connection inside this process: pg-boss shares it with the shop. It queues every statement behind
 * a running transaction, so the two never interleave. A script without parameters may hold several statements
 * (pg-boss wraps maintenance in BEGIN ... COMMIT), which only `exec` runs; pg-boss reads the last one's rows.
 */
function pgliteExecutor(client: PGlite): JobSqlExecutor {
  return {
    executeSql: async (text: string, values?: unknown[]) => {
      if (values && values.length > 0) return client.query(text, values);
      const results = await client.exec(text);
      return results.at(-1) ?? { rows: [] };
    },
  };
}

/**
 * How pg-boss reaches the database: on PostgreSQL through a small pool of its own (its scripts and polling stay off
 * the shop's pool), on PGlite through the one in-process connection.
 */
export function connectionFor(database: Database, poolSize: number): PgBoss.DatabaseOptions {
  if (database.kind === "postgres") return { connectionString: database.url, max: poolSize, application_name: "shop-jobs" };
  // drizzle's PGlite database carries its client; client.ts keeps it behind the Db type.
  return { db: pgliteExecutor((database.db as unknown as { $client: PGlite }).$client) };
}

/**
 * Creates pg-boss's schema, or brings it to this pg-boss version, once; safe to run from several instances at once
 * (pg-boss takes an advisory lock). The worker does this on start; migrations do it for databases without a worker
 * (tests, the command line), since queuing a job needs the tables.
 */
export async function installJobQueue(database: Database): Promise<void> {
  const boss = new PgBoss({ ...connectionFor(database, 1), schema: JOB_SCHEMA, supervise: false, schedule: false, migrate: true });
  await boss.start();
  await boss.stop({ graceful: false });
}
