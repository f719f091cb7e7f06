import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import type { Database } from "@/server/db/client";
import { logger } from "@/server/logger";
import { runMigrations } from "@/server/setup/migrate";
import { queryRows } from "../../../tests/helpers/test-database";
import { killWorker, meeting, startWorkerProcess, type Meeting, type WorkerProcess } from "../../../tests/helpers/worker-process";
import { defineJob } from "./define";
import { enqueueJob } from "./queue";
import { startJobWorker, type JobWorker } from "./worker";
import { createRestartTables, handOverJob, restartEffects, restartTries } from "./worker-restart.fixture";

/**
 * Issue 30, "jobs survive restarts promptly": a worker process killed (SIGKILL) or stopped (SIGTERM) in the middle
 * of a job; the job's expiry is two minutes and its retry delay one, yet the next worker runs it within seconds,
 * because the dead worker stopped beating (or the stopping one handed the job back). A slow job on a live worker
 * is never touched. On PostgreSQL (TEST_DATABASE_URL) the workers share one database, as two instances do; on PGlite
 * the shop starts again on the same data folder.
 */

const cleanUps: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanUp of cleanUps.splice(0).reverse()) await cleanUp();
});

const fixture = "./src/server/jobs/worker-restart.fixture.ts";

type JobRow = { state: string; retry_count: number; output: { message?: string; handedBack?: boolean } | null; waits: boolean };
const jobRow = (database: Database, jobId: string) =>
  queryRows<JobRow>(database.db, sql`select state, retry_count, output, start_after > now() as waits from pgboss.job where id = ${jobId}`).then((rows) => rows[0]);

/** A shop with the fixture's tables and one `hand-over` job queued, handed over to the worker process. */
async function oneJobQueued(where: Meeting): Promise<void> {
  const first = await where.open();
  await runMigrations(first);
  await createRestartTables(first.db);
  await enqueueJob(first.db, handOverJob, { key: "parcel-1" });
  await where.handOver();
}

async function workerProcess(where: Meeting, hang: string, worker?: { stopTimeoutMs?: number }): Promise<{ process: WorkerProcess; jobId: string }> {
  const started = startWorkerProcess({ env: { ...where.childEnv, RESTART_JOB_HANG: hang }, module: fixture, exportName: "restartJobs", cleanUps, worker });
  const [, jobId] = await started.printed(/running (\S+)/);
  return { process: started, jobId: jobId! };
}

async function nextWorker(database: Database, jobs: Parameters<typeof startJobWorker>[1]): Promise<JobWorker> {
  const worker = await startJobWorker(database, jobs, { log: logger, pollingIntervalSeconds: 0.2, beatSeconds: 1, stopTimeoutMs: 2_000 });
  cleanUps.push(() => worker.stop());
  return worker;
}

describe("a worker killed in the middle of a job", () => {
  it("has its job retried by the next worker within seconds, not after the job's expiry, and done once", async () => {
    const where = await meeting(cleanUps);
    await oneJobQueued(where);
    const { process: killed, jobId } = await workerProcess(where, "forever");
    await killWorker(killed);

    const database = await where.open();
    expect((await jobRow(database, jobId))?.state).toBe("active");
    const started = Date.now();
    await nextWorker(database, [handOverJob]);
    // The killed worker beat every 2 s: it counts as dead 6 s after its last beat at the most (on PGlite at once).
    await vi.waitFor(async () => expect((await jobRow(database, jobId))?.state).toBe("completed"), { timeout: 15_000, interval: 200 });
    expect(Date.now() - started).toBeLessThan(10_000);

    const tries = await restartTries(database.db);
    expect(tries.map(({ attempt, pid, previous_try_stopped }) => [attempt, pid, previous_try_stopped])).toEqual([
      [1, killed.child.pid, false],
      [2, process.pid, true],
    ]);
    expect(await restartEffects(database.db)).toEqual([{ key: "parcel-1", pid: process.pid }]);
    // The dead worker is forgotten with what it held.
    expect(await queryRows(database.db, sql`select * from job_worker_try`)).toEqual([]);
    expect(await queryRows<{ pid: number }>(database.db, sql`select pid from job_worker`)).toEqual([{ pid: process.pid }]);
  }, 90_000);
});

describe("a slow job on a live worker", () => {
  it("is left alone while its worker beats, however long it runs, and finished by that worker", async () => {
    const where = await meeting(cleanUps);
    const database = await where.open();
    await runMigrations(database);
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const tries: number[] = [];
    const slowJob = defineJob({
      name: "slow-but-alive",
      schema: z.object({}),
      retry: { limit: 2, delaySeconds: 0 },
      expireInSeconds: 120,
      async run(_data, { attempt }) {
        tries.push(attempt);
        await released;
      },
    });
    await enqueueJob(database.db, slowJob, {});
    await nextWorker(database, [slowJob]);
    await vi.waitFor(() => expect(tries).toEqual([1]), { timeout: 10_000, interval: 100 });
    const [{ id: jobId } = { id: "" }] = await queryRows<{ id: string }>(database.db, sql`select id from pgboss.job where name = ${slowJob.name}`);
    // Another instance, looking for dead workers on each of its beats, for well over three beats of the first.
    await nextWorker(database, []);
    await new Promise((resolve) => setTimeout(resolve, 5_000));

    expect(await jobRow(database, jobId)).toMatchObject({ state: "active", retry_count: 0, output: null });
    expect(await queryRows<{ job_id: string }>(database.db, sql`select job_id from job_worker_try`)).toEqual([{ job_id: jobId }]);
    release();
    await vi.waitFor(async () => expect((await jobRow(database, jobId))?.state).toBe("completed"), { timeout: 10_000, interval: 100 });
    expect(tries).toEqual([1]);
  }, 60_000);
});

describe("a worker stopped (SIGTERM) in the middle of a job", () => {
  it("lets a job that ends in time finish, exits 0, and nobody runs the job again", async () => {
    const where = await meeting(cleanUps);
    await oneJobQueued(where);
    const { process: stopped, jobId } = await workerProcess(where, "1500", { stopTimeoutMs: 10_000 });
    stopped.child.kill("SIGTERM");
    expect(await stopped.exited).toBe(0);

    const database = await where.open();
    expect((await jobRow(database, jobId))?.state).toBe("completed");
    await nextWorker(database, [handOverJob]);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await restartTries(database.db)).map(({ attempt, pid }) => [attempt, pid])).toEqual([[1, stopped.child.pid]]);
    expect(await restartEffects(database.db)).toEqual([{ key: "parcel-1", pid: stopped.child.pid }]);
    expect(await queryRows(database.db, sql`select * from job_worker where pid = ${stopped.child.pid!}`)).toEqual([]);
  }, 90_000);

  it("hands back a job still running when its time is up, exits 0, and the next worker runs it at once, once", async () => {
    const where = await meeting(cleanUps);
    await oneJobQueued(where);
    const { process: stopped, jobId } = await workerProcess(where, "forever", { stopTimeoutMs: 1_000 });
    const signalled = Date.now();
    stopped.child.kill("SIGTERM");
    expect(await stopped.exited).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(8_000);

    const database = await where.open();
    // Handed back, not failed for a minute: it waits for no retry delay.
    expect(await jobRow(database, jobId)).toMatchObject({ state: "retry", waits: false, output: { handedBack: true } });
    expect(await queryRows(database.db, sql`select * from job_worker where pid = ${stopped.child.pid!}`)).toEqual([]);
    await nextWorker(database, [handOverJob]);
    await vi.waitFor(async () => expect((await jobRow(database, jobId))?.state).toBe("completed"), { timeout: 5_000, interval: 100 });

    const tries = await restartTries(database.db);
    expect(tries.map(({ attempt, pid, previous_try_stopped }) => [attempt, pid, previous_try_stopped])).toEqual([
      [1, stopped.child.pid, false],
      [2, process.pid, true],
    ]);
    expect(await restartEffects(database.db)).toEqual([{ key: "parcel-1", pid: process.pid }]);
  }, 90_000);
});
