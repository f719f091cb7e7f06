import { sql } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { logger } from "@/server/logger";
import { databaseForFile, queryRows } from "../../../tests/helpers/test-database";
import { defineJob } from "./define";
import { enqueueJob } from "./queue";
import { runWaitingJobs, startJobWorker, type JobWorker } from "./worker";

/**
 * The job queue on the file's database: PostgreSQL when TEST_DATABASE_URL is set, PGlite (in this process, one
 * connection) otherwise. Each job writes what it did to `job_run`, which the tests read.
 */

const t = databaseForFile();
const workers: JobWorker[] = [];

beforeAll(async () => {
  await t.db.execute(sql`create table job_run (job_id text not null, key text not null, attempt int not null, worker text not null, at timestamptz not null default clock_timestamp())`);
});

afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.stop()));
});

type Run = { job_id: string; key: string; attempt: number; worker: string; at: Date | string };
const runsOf = (key: string) => queryRows<Run>(t.db, sql`select * from job_run where key = ${key} order by at`);

/** A job that writes one row per try; it throws on the tries listed in `failOn` and takes `ms` to run. */
function recordingJob(name: string, options: { failOn?: number[]; ms?: number; worker?: string } = {}) {
  return defineJob({
    name,
    schema: z.object({ key: z.string().min(1) }),
    retry: { limit: 3, delaySeconds: 1, backoff: true },
    async run({ key }, { db, jobId, attempt }) {
      await db.execute(sql`insert into job_run (job_id, key, attempt, worker) values (${jobId}, ${key}, ${attempt}, ${options.worker ?? "main"})`);
      if (options.ms) await new Promise((resolve) => setTimeout(resolve, options.ms));
      if (options.failOn?.includes(attempt)) throw new Error(`try ${attempt} fails`);
    },
  });
}

async function start(jobs: Parameters<typeof startJobWorker>[1]) {
  const worker = await startJobWorker(t.database, jobs, { log: logger, pollingIntervalSeconds: 0.2, maintenanceIntervalSeconds: 1, stopTimeoutMs: 5_000 });
  workers.push(worker);
  return worker;
}

const jobStates = (name: string) =>
  queryRows<{ state: string; retry_count: number; output: { message?: string } | null }>(
    t.db,
    sql`select state, retry_count, output from pgboss.job where name = ${name} order by created_on`,
  );

describe("queuing a job", () => {
  it("runs a job queued in a transaction once that transaction commits, and never one queued in a transaction rolled back", async () => {
    const job = recordingJob("commit-or-not");
    await t.db.transaction(async (tx) => {
      await enqueueJob(tx, job, { key: "committed" });
    });
    await t.db
      .transaction(async (tx) => {
        await enqueueJob(tx, job, { key: "rolled-back" });
        throw new Error("the order could not be saved");
      })
      .catch(() => undefined);

    expect(await jobStates(job.name)).toHaveLength(1);
    expect(await runWaitingJobs(t.database, [job], logger)).toBe(1);
    expect(await runsOf("committed")).toHaveLength(1);
    expect(await runsOf("rolled-back")).toHaveLength(0);
    expect((await jobStates(job.name)).map((row) => row.state)).toEqual(["completed"]);
    // A done job is not taken again.
    expect(await runWaitingJobs(t.database, [job], logger)).toBe(0);
  });

  it("checks the data with the job's schema when it is queued and again when it runs", async () => {
    const job = recordingJob("checked-data");
    await expect(enqueueJob(t.db, job, { key: "" })).rejects.toThrow();
    expect(await jobStates(job.name)).toHaveLength(0);

    // Data that no longer fits the schema (a job queued by an older version) fails when it runs.
    await enqueueJob(t.db, job, { key: "fine" });
    await t.db.execute(sql`update pgboss.job set data = '{"key": 42}' where name = ${job.name}`);
    await runWaitingJobs(t.database, [job], logger);
    expect(await runsOf("fine")).toHaveLength(0);
    expect((await jobStates(job.name))[0]?.state).toBe("retry");
  });

  it("keeps one job per singleton key waiting or running, and takes a new one once that is done", async () => {
    const job = recordingJob("one-per-key");
    await enqueueJob(t.db, job, { key: "label-7" }, { singletonKey: "order-7" });
    await t.db.transaction(async (tx) => {
      await enqueueJob(tx, job, { key: "label-7" }, { singletonKey: "order-7" });
    });
    await enqueueJob(t.db, job, { key: "label-8" }, { singletonKey: "order-8" });
    expect(await jobStates(job.name)).toHaveLength(2);

    await runWaitingJobs(t.database, [job], logger);
    await enqueueJob(t.db, job, { key: "label-7" }, { singletonKey: "order-7" });
    expect((await jobStates(job.name)).map((row) => row.state)).toEqual(["completed", "completed", "created"]);
  });

  it("waits with a job until its start time", async () => {
    const job = recordingJob("later");
    await enqueueJob(t.db, job, { key: "later" }, { startAfter: new Date(Date.now() + 60 * 60_000) });
    expect(await runWaitingJobs(t.database, [job], logger)).toBe(0);
    expect((await jobStates(job.name)).map((row) => row.state)).toEqual(["created"]);
  });
});

describe("the worker", () => {
  it("retries a job that throws, waiting longer each time (exponential backoff), until it succeeds", async () => {
    const job = recordingJob("flaky", { failOn: [1, 2] });
    await start([job]);
    await enqueueJob(t.db, job, { key: "flaky" });

    await vi.waitFor(async () => expect((await jobStates(job.name))[0]?.state).toBe("completed"), { timeout: 20_000, interval: 200 });
    const runs = await runsOf("flaky");
    expect(runs.map((run) => run.attempt)).toEqual([1, 2, 3]);
    const at = runs.map((run) => new Date(run.at).getTime());
    // retry.delaySeconds 1 with backoff: at least 1 s before the second try and at least 2 s before the third.
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(1_000);
    expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(2_000);
  }, 30_000);

  it("fails a job for good once its retries are spent, keeping the error", async () => {
    const job = defineJob({
      name: "hopeless",
      schema: z.object({}),
      retry: { limit: 1, delaySeconds: 0 },
      run: () => Promise.reject(new Error("the carrier refused the address")),
    });
    await start([job]);
    await enqueueJob(t.db, job, {});
    await vi.waitFor(async () => expect((await jobStates(job.name))[0]?.state).toBe("failed"), { timeout: 10_000, interval: 200 });
    const [failed] = await jobStates(job.name);
    expect(failed?.retry_count).toBe(1);
    expect(failed?.output?.message).toBe("the carrier refused the address");
  });

  it("never runs one job twice when two workers take from the same queue", async () => {
    const one = recordingJob("shared", { ms: 20, worker: "one" });
    const two = recordingJob("shared", { ms: 20, worker: "two" });
    const keys = Array.from({ length: 30 }, (_, index) => `shared-${index}`);
    for (const key of keys) await enqueueJob(t.db, one, { key });
    await Promise.all([start([one]), start([two])]);

    await vi.waitFor(async () => expect((await jobStates(one.name)).every((row) => row.state === "completed")).toBe(true), { timeout: 20_000, interval: 200 });
    const runs = await queryRows<Run>(t.db, sql`select * from job_run where key like 'shared-%'`);
    expect(runs).toHaveLength(keys.length);
    expect(new Set(runs.map((run) => run.job_id)).size).toBe(keys.length);
    expect(new Set(runs.map((run) => run.key))).toEqual(new Set(keys));
  }, 30_000);

  it("puts scheduled jobs on the schedule in UTC, once whichever instances start", async () => {
    const nightly = defineJob({ name: "nightly-check", schema: z.object({}), schedule: "0 2 * * *", run: async () => {} });
    await Promise.all([start([nightly]), start([nightly])]);
    const schedules = await queryRows<{ name: string; cron: string; timezone: string }>(t.db, sql`select name, cron, timezone from pgboss.schedule`);
    expect(schedules).toEqual([{ name: "nightly-check", cron: "0 2 * * *", timezone: "UTC" }]);
  });

  it("lets a running job finish when it stops", async () => {
    const job = recordingJob("slow", { ms: 1_500 });
    const worker = await start([job]);
    await enqueueJob(t.db, job, { key: "slow" });
    await vi.waitFor(async () => expect(await runsOf("slow")).toHaveLength(1), { timeout: 10_000, interval: 100 });
    await worker.stop();
    expect((await jobStates(job.name)).map((row) => row.state)).toEqual(["completed"]);
  });
});
