import "server-only";
import { sql } from "drizzle-orm";
import PgBoss from "pg-boss";
import type { Db } from "@/server/db/client";
import { rawRows } from "@/server/db/raw-rows";
import { drizzleExecutor, JOB_SCHEMA } from "@/server/jobs/boss";
import type { JobDefinition } from "@/server/jobs/define";

export type EnqueueOptions = {
  /** At most one job of this kind with this key waits or runs at a time: queuing another meanwhile does nothing. */
  singletonKey?: string;
  /**
   * With `singletonKey`: "waiting" lets a job be queued while another with the key runs, though not while one
   * waits. For a job that reads the latest state when it starts (a marketplace quantity push), a change made while
   * one runs needs a run after it, and changes made while one waits are all seen by it.
   */
  singletonWhile?: "waiting-or-running" | "waiting";
  /** Not before this moment. */
  startAfter?: Date;
};

/** A job that says nothing: tried again three times, after about 10 s, 20 s and 40 s. */
const DEFAULT_RETRY = { limit: 3, delaySeconds: 10, backoff: true };
/** A job that says nothing may run five minutes; past that its try counts as failed (its process died or hangs). */
const DEFAULT_EXPIRE_SECONDS = 300;

type JobLimits = Pick<JobDefinition, "retry" | "expireInSeconds">;

/** What a job definition says about retries and expiry, in pg-boss's words, for every job of that kind. */
export function sendOptionsOf(job: JobLimits): PgBoss.SendOptions {
  const retry = job.retry ?? DEFAULT_RETRY;
  return {
    retryLimit: retry.limit,
    retryDelay: retry.delaySeconds,
    retryBackoff: retry.backoff ?? false,
    expireInSeconds: expireSecondsOf(job),
  };
}

/** The longest one try of this kind of job may take. */
export function expireSecondsOf(job: JobLimits): number {
  return job.expireInSeconds ?? DEFAULT_EXPIRE_SECONDS;
}

/**
 * pg-boss's API without a connection of its own: each call names the handle it runs on (`db` option), which is
 * how a job is queued inside the caller's transaction.
 */
export const jobClient = new PgBoss({
  schema: JOB_SCHEMA,
  db: {
    executeSql: () => Promise.reject(new Error("jobClient: pass the handle to run on as the `db` option")),
  },
});

/**
 * Queues a job inside `db`, which may be a transaction: the job exists only if that transaction commits, and the
 * worker of any instance may run it from then on. The data is checked with the job's schema now and again when it
 * runs; it travels as JSON (a Date or a Decimal arrives as a string, so the schema should coerce it).
 */
export async function enqueueJob<T>(db: Db, job: JobDefinition<T>, data: T, options: EnqueueOptions = {}): Promise<void> {
  const checked = job.schema.parse(data);
  // A savepoint inside the caller's transaction, or a transaction of its own: the key's lock lasts until commit.
  await db.transaction(async (tx) => {
    await ensureQueue(tx, job.name);
    if (options.singletonKey && (await isQueued(tx, job.name, options.singletonKey, options.singletonWhile ?? "waiting-or-running"))) return;
    await jobClient.send(job.name, checked as object, {
      ...sendOptionsOf(job),
      singletonKey: options.singletonKey,
      startAfter: options.startAfter,
      db: drizzleExecutor(tx),
    });
  });
}

/**
 * pg-boss keeps each kind of job in a queue of its own (a table partition), which must exist before a job joins it.
 * Creating one takes locks that deadlock when two instances create the same queue at once, so creators take turns.
 */
export async function ensureQueue(tx: Db, name: string): Promise<void> {
  const queue = sql.raw(`${JOB_SCHEMA}.queue`);
  if ((await rawRows(tx, sql`select 1 from ${queue} where name = ${name}`)).length > 0) return;
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`${JOB_SCHEMA}.create_queue`}, 0))`);
  const options = JSON.stringify({ policy: "standard" });
  await tx.execute(sql`select ${sql.raw(JOB_SCHEMA)}.create_queue(${name}, ${options}::json)`);
}

/**
 * Whether a job of this kind with this key is waiting, waiting for a retry or (unless only waiting ones count)
 * running. Transactions queuing the same key take turns (an advisory lock held until they end), so two of them never both find none and both queue.
 */
async function isQueued(tx: Db, name: string, key: string, while_: "waiting-or-running" | "waiting"): Promise<boolean> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`${name}/${key}`}, 0))`);
  // pg-boss's states in order: created, retry, active, completed, ...
  const before = while_ === "waiting" ? "active" : "completed";
  const found = await rawRows(
    tx,
    sql`select 1 from ${sql.raw(JOB_SCHEMA)}.job where name = ${name} and singleton_key = ${key} and state < ${before} limit 1`,
  );
  return found.length > 0;
}
