import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import { sql } from "drizzle-orm";
import { PgBoss, type Clock, type SendOptions } from "pg-boss";
import type { Db } from "@/server/db/client";
import { rawRows } from "@/server/db/raw-rows";
import { drizzleExecutor, JOB_SCHEMA, KEEP_FINISHED_SECONDS, type JobSqlExecutor } from "@/server/jobs/boss";
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

/** What a job definition says about retries, expiry and keeping, in pg-boss's words, for every job of that kind. */
export function sendOptionsOf(job: JobLimits): SendOptions {
  const retry = job.retry ?? DEFAULT_RETRY;
  return {
    retryLimit: retry.limit,
    retryDelay: retry.delaySeconds,
    retryBackoff: retry.backoff ?? false,
    expireInSeconds: expireSecondsOf(job),
    deleteAfterSeconds: KEEP_FINISHED_SECONDS,
  };
}

/** The longest one try of this kind of job may take. */
export function expireSecondsOf(job: JobLimits): number {
  return job.expireInSeconds ?? DEFAULT_EXPIRE_SECONDS;
}

/** The handle of the pg-boss call in progress (`withJobClient`). */
const callHandle = new AsyncLocalStorage<JobSqlExecutor>();

/**
 * The timers of `jobClient`'s background work (it refreshes its queue list and counts its running work on
 * intervals): an interval never keeps a process alive (a script that queued a job still ends), and no timer runs on
 * the handle of the call that happened to start it, which may be a transaction long over.
 */
const detachedClock: Clock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => setTimeout(() => callHandle.exit(run), ms),
  clearTimeout: (timer) => clearTimeout(timer as NodeJS.Timeout),
  setInterval: (run, ms) => setInterval(() => callHandle.exit(run), ms).unref(),
  clearInterval: (timer) => clearInterval(timer as NodeJS.Timeout),
};

/**
 * pg-boss's API without a connection of its own. pg-boss 12 looks a job's queue up (its table and policy) before
 * it queues, takes or settles the job, through the instance's connection rather than the call's; here that
 * connection is the handle of the call in progress. So a queue created earlier in the caller's transaction is
 * found, and PGlite's one connection is never asked from outside a transaction that holds it (which would wait for
 * that transaction forever).
 */
const jobClient = new PgBoss({
  schema: JOB_SCHEMA,
  db: {
    executeSql: (text, values) => {
      const handle = callHandle.getStore();
      return handle ? handle.executeSql(text, values) : Promise.reject(new Error("jobClient runs on the handle of a call (withJobClient)"));
    },
  },
  migrate: false,
  supervise: false,
  schedule: false,
  registerInstance: false,
  clock: detachedClock,
  // Its queue list is refreshed on a miss anyway (a queue this process has not seen yet); the timed refresh has no
  // handle to run on and fails, so it runs as seldom as pg-boss allows, and its failure is not news.
  queueCacheIntervalSeconds: 24 * 60 * 60,
});
jobClient.on("error", () => {});
let jobClientStarted: Promise<unknown> | undefined;

/**
 * Runs pg-boss's API on `db`, which may be a transaction: `use` passes `handle` as each call's `db` option, so the
 * call is part of it. pg-boss starts once per process, on the first caller's handle (it checks its schema's
 * version and reads the queues).
 */
export async function withJobClient<T>(db: Db, use: (boss: PgBoss, handle: JobSqlExecutor) => Promise<T>): Promise<T> {
  const handle = drizzleExecutor(db);
  return callHandle.run(handle, async () => {
    jobClientStarted ??= jobClient.start().catch((error: unknown) => {
      jobClientStarted = undefined;
      throw error;
    });
    await jobClientStarted;
    return use(jobClient, handle);
  });
}

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
    await withJobClient(tx, (boss, handle) =>
      boss.send(job.name, checked as object, { ...sendOptionsOf(job), singletonKey: options.singletonKey, startAfter: options.startAfter, db: handle }),
    );
  });
}

/**
 * pg-boss keeps each kind of job in a queue of its own, which must exist before a job joins it. Its SQL function
 * creates one inside `tx` (pg-boss's `createQueue` runs a transaction of its own), sharing pg-boss's one job table
 * with the other queues; one created meanwhile by another instance is left as it is.
 */
export async function ensureQueue(tx: Db, name: string): Promise<void> {
  const queue = sql.raw(`${JOB_SCHEMA}.queue`);
  if ((await rawRows(tx, sql`select 1 from ${queue} where name = ${name}`)).length > 0) return;
  const options = JSON.stringify({ policy: "standard" });
  await tx.execute(sql`select ${sql.raw(JOB_SCHEMA)}.create_queue(${name}, ${options}::jsonb)`);
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
