import "server-only";
import { PgBoss, type JobAttempt, type JobWithMetadata } from "pg-boss";
import type { Database } from "@/server/db/client";
import { connectionFor, JOB_SCHEMA } from "@/server/jobs/boss";
import type { JobDefinition } from "@/server/jobs/define";
import { ensureQueue, expireSecondsOf, sendOptionsOf, withJobClient } from "@/server/jobs/queue";
import { BEAT_SECONDS, beat, forgetWorker, holdTry, registerWorker, releaseTry, type HeldTry } from "./heartbeat";
import { handBackDeadWorkers, handBackTries, logHandBack, wasHandedBack } from "./hand-back";
import type { Logger } from "@/server/logger";

export type JobWorkerOptions = {
  log: Logger;
  /** How long an idle queue waits before it asks again; a queued job starts within about this time. */
  pollingIntervalSeconds?: number;
  /**
   * How often one instance (whichever gets there first) fails the tries whose time ran out, so that a job whose
   * process died is retried.
   */
  maintenanceIntervalSeconds?: number;
  /** How long `stop` waits for running jobs before handing them back to the queue for another instance. */
  stopTimeoutMs?: number;
  /**
   * How often (whole seconds) this worker writes its heartbeat and looks for workers that stopped beating, whose jobs
   * it hands back to the queue (hand-back.ts).
   */
  beatSeconds?: number;
};

export type JobWorker = {
  /**
   * Stops taking jobs, lets the running ones finish (for up to `stopTimeoutMs`), hands back those still running so
   * that another instance takes them at once, and closes the connection.
   */
  stop: () => Promise<void>;
};

/** A job the worker runs; the data's type is the job's own business (its schema checks it). */
export type RegisteredJob = JobDefinition<unknown>;

/**
 * The worker gives up on a try this long before pg-boss would count it as expired, so that the worker has failed
 * it (and ignores whatever it does next) before another instance can take the retry.
 */
const DEADLINE_MARGIN_MS = 2_000;

/**
 * Runs every job in `jobs` from the queue in PostgreSQL (or PGlite), from any number of instances at once:
 * - each try is taken by one worker only (pg-boss takes a job with `FOR UPDATE SKIP LOCKED` and marks it active in
 *   the same statement), and a done job is never taken again;
 * - a try that throws is retried after the job's `retry` delay (doubling with `backoff`); one that outlives
 *   `expireInSeconds` is failed and retried the same way (maintenance);
 * - a try whose worker died (killed, crashed) is handed back and retried at once: every worker beats every few
 *   seconds, and the tries of one that missed a few beats are failed by whichever instance looks first, at its start
 *   or on its own beat (heartbeat.ts, hand-back.ts); a slow try on a live worker is left alone;
 * - `stop` (SIGTERM) takes no new tries, lets running ones finish for a while, and hands back the rest;
 * - scheduled jobs (`schedule`, cron in UTC) are queued once per tick, whichever instances run;
 * - each kind of job has its own loop, so a slow label never holds up an e-mail; a loop that finds work asks again
 *   at once, an idle one waits `pollingIntervalSeconds`.
 * A job outliving its expiry cannot be stopped from outside (JavaScript has no way to), so `expireInSeconds` must
 * be well above a job's longest run; and every job claims what it does, so that a retry after a crash half-way
 * finishes the work instead of repeating it.
 */
export async function startJobWorker(database: Database, jobs: readonly RegisteredJob[], options: JobWorkerOptions): Promise<JobWorker> {
  const names = jobs.map((job) => job.name);
  const twice = names.find((name, index) => names.indexOf(name) !== index);
  if (twice) throw new Error(`Two jobs are named ${twice}`);
  const log = options.log.child({ event: "JOB" });
  const pollingMs = (options.pollingIntervalSeconds ?? 1) * 1000;

  const expiryCheckSeconds = options.maintenanceIntervalSeconds ?? 30;
  // pg-boss fails the tries whose time ran out in its supervision pass, for the queues whose monitoring is due: both
  // bound how soon a hanging try is tried again, and a try whose worker died before it was noted (hand-back.ts
  // retries the noted ones within a few seconds).
  const boss = new PgBoss({ ...connectionFor(database, 3), schema: JOB_SCHEMA, superviseIntervalSeconds: expiryCheckSeconds, monitorIntervalSeconds: expiryCheckSeconds });
  // Without a listener an 'error' event would end the process; pg-boss carries on after each.
  boss.on("error", (error: unknown) => log.error({ err: error }, "job queue error"));
  await boss.start();
  for (const job of jobs) await database.db.transaction((tx) => ensureQueue(tx, job.name));
  await syncSchedules(boss, jobs);

  const beatSeconds = options.beatSeconds ?? BEAT_SECONDS;
  const workerId = await registerWorker(database.db, beatSeconds);
  // Before taking any job: what a worker that died before this one started still holds goes back to the queue now.
  await handBackDeadWorkers(database, log);
  let beating: Promise<void> | undefined;
  const beatAndLook = async () => {
    try {
      if ((await beat(database.db, workerId, beatSeconds)) === "lost") {
        log.error({ workerId }, "this job worker went so long without a heartbeat that it counted as stopped: the jobs it ran were handed back");
      }
      await handBackDeadWorkers(database, log);
    } catch (error) {
      log.error({ err: error }, "the job worker's heartbeat could not be written");
    }
  };
  const beatTimer = setInterval(() => (beating ??= beatAndLook().finally(() => (beating = undefined))), beatSeconds * 1000);

  let stopping = false;
  const idle = new Set<() => void>();
  const running: RunningTries = new Map();
  const settle: Settle = { complete: (name, attempt) => boss.complete(name, attempt), fail: (name, attempt, output) => boss.fail(name, attempt, output) };
  const noted = (what: string) => (error: unknown) => log.warn({ err: error }, `the job worker could not note ${what}`);

  const pause = () =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        idle.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, pollingMs);
      idle.add(wake);
    });

  const loop = async (job: RegisteredJob) => {
    while (!stopping) {
      try {
        const [taken] = await boss.fetch<unknown>(job.name, { includeMetadata: true });
        if (!taken) {
          await pause();
          continue;
        }
        // Taken and not yet noted, a try whose process dies is retried only once its time ran out, as before.
        const held: HeldTry = { queue: job.name, jobId: taken.id, retryCount: taken.retryCount };
        await holdTry(database.db, workerId, held).catch(noted("the job it took"));
        await runTry(database, job, taken, { log, settle, running });
        await releaseTry(database.db, held).catch(noted("the end of a job"));
      } catch (error) {
        log.error({ err: error, job: job.name }, "the job queue could not be read");
        await pause();
      }
    }
  };
  const loops = jobs.map((job) => loop(job));
  log.info({ jobs: names }, `job worker started: ${names.length} kinds of job`);

  let stopped: Promise<void> | undefined;
  const stop = async () => {
    stopping = true;
    for (const wake of idle) wake();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, options.stopTimeoutMs ?? 20_000)));
    await Promise.race([Promise.allSettled(loops), timeout]);
    clearTimeout(timer);
    const left = [...running.values()];
    for (const { abandon } of left) abandon();
    clearInterval(beatTimer);
    await beating;
    try {
      const message = "the server stopped while the job ran; handed back to be tried again at once";
      const outcome = await database.db.transaction((tx) => handBackTries(tx, left.map(({ held }) => held), message));
      logHandBack(log, outcome, "still running at stop");
      await forgetWorker(database.db, workerId);
    } catch (error) {
      // Its row stays and goes quiet: another instance hands the tries back a few beats from now.
      log.error({ err: error }, "the jobs still running could not be handed back at stop");
    }
    await boss.stop({ graceful: false });
    log.info("job worker stopped");
  };
  return { stop: () => (stopped ??= stop()) };
}

/** Puts the jobs' schedules in place and takes away those of jobs that no longer have one. */
async function syncSchedules(boss: PgBoss, jobs: readonly RegisteredJob[]): Promise<void> {
  const scheduled = jobs.filter((job) => job.schedule);
  for (const job of scheduled) await boss.schedule(job.name, job.schedule!, {}, { tz: "UTC", ...sendOptionsOf(job) });
  for (const { name } of await boss.getSchedules()) {
    if (!scheduled.some((job) => job.name === name)) await boss.unschedule(name);
  }
}

/**
 * How a try's end is recorded: through the worker's own connection, or through the caller's handle. Only the try
 * that was taken is settled: once its time ran out and the job was retried, pg-boss leaves the newer try alone.
 */
type Settle = {
  complete: (name: string, attempt: JobAttempt) => Promise<unknown>;
  fail: (name: string, attempt: JobAttempt, output: object) => Promise<unknown>;
};
/** The tries running now, by job id, each with what gives it up (at stop). */
type RunningTries = Map<string, { held: HeldTry; abandon: () => void }>;

/**
 * One try of a job taken from the queue: its data checked, `run` called with a deadline a little inside the job's
 * expiry, and the outcome recorded; a throw (or the deadline) fails the try, which pg-boss retries while the job
 * has retries left. A try given up at stop has already been handed back, and its outcome no longer counts.
 */
async function runTry(
  database: Database,
  job: RegisteredJob,
  taken: JobWithMetadata<unknown>,
  { log, settle, running }: { log: Logger; settle: Settle; running: RunningTries },
): Promise<void> {
  const attempt = taken.retryCount + 1;
  const jobLog = log.child({ job: job.name, jobId: taken.id, attempt });
  let abandoned = false;
  let abandon = () => {};
  const deadline = new Promise<never>((_, reject) => {
    const limitMs = expireSecondsOf(job) * 1000;
    const timer = setTimeout(() => reject(new Error(`took longer than ${limitMs / 1000} s`)), Math.max(limitMs - DEADLINE_MARGIN_MS, limitMs * 0.8));
    abandon = () => {
      clearTimeout(timer);
      abandoned = true;
    };
  });
  const tried: JobAttempt = { id: taken.id, retryCount: taken.retryCount };
  running.set(taken.id, { held: { queue: job.name, jobId: taken.id, retryCount: taken.retryCount }, abandon: () => abandon() });
  const previousTryStopped = wasHandedBack(taken.output);
  try {
    const run = Promise.resolve().then(() => job.run(job.schema.parse(taken.data), { db: database.db, log: jobLog, jobId: taken.id, attempt, previousTryStopped }));
    await Promise.race([run, deadline]);
    if (abandoned) return;
    abandon();
    await settle.complete(job.name, tried);
  } catch (error) {
    if (abandoned) return;
    abandon();
    const retries = attempt <= taken.retryLimit;
    jobLog[retries ? "warn" : "error"]({ err: error }, retries ? `job ${job.name} failed; it will be tried again` : `job ${job.name} failed for good`);
    await settle.fail(job.name, tried, error instanceof Error ? error : { message: String(error) });
  } finally {
    running.delete(taken.id);
  }
}

/**
 * Runs the jobs of these kinds that are due, here and now, one after another until none is left, through `db`
 * instead of a worker: for tests and scripts that cannot wait for a worker's polling. Returns how many tries ran.
 */
export async function runWaitingJobs(database: Database, jobs: readonly RegisteredJob[], log: Logger): Promise<number> {
  const settle: Settle = {
    complete: (name, attempt) => withJobClient(database.db, (boss, db) => boss.complete(name, attempt, null, { db })),
    fail: (name, attempt, output) => withJobClient(database.db, (boss, db) => boss.fail(name, attempt, output, { db })),
  };
  let tries = 0;
  for (let found = true; found; ) {
    found = false;
    for (const job of jobs) {
      const [taken] = await withJobClient(database.db, (boss, db) => boss.fetch<unknown>(job.name, { includeMetadata: true, db }));
      if (!taken) continue;
      found = true;
      tries += 1;
      await runTry(database, job, taken, { log: log.child({ event: "JOB" }), settle, running: new Map() });
    }
  }
  return tries;
}
