import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Database } from "@/server/db/client";
import { logger } from "@/server/logger";
import { runMigrations } from "@/server/setup/migrate";
import { queryRows } from "../../../tests/helpers/test-database";
import { killWorker, meeting, startWorkerProcess, type WorkerProcess } from "../../../tests/helpers/worker-process";
import { enqueueJob } from "./queue";
import { startJobWorker, type JobWorker } from "./worker";
import { claimOnceJob, crashEffects, crashTries, createCrashTables } from "./worker-crash.fixture";

/**
 * Issue 12, acceptance 5: a worker process is killed (SIGKILL, no chance to clean up) in the middle of a job; once
 * the job's time has run out another worker takes it again, and what the job does happens exactly once. On
 * PostgreSQL (TEST_DATABASE_URL) the other worker is another process on the same database, as with two instances;
 * on PGlite it is the shop started again on the same data folder, as on one machine.
 */

const cleanUps: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanUp of cleanUps.splice(0).reverse()) await cleanUp();
});

/** A worker in a process of its own, running `claimOnceJob`, which stops in the job as `hang` says; answers the job it took. */
async function workerProcess(env: Record<string, string>, hang: "before" | "after"): Promise<{ worker: WorkerProcess; jobId: string }> {
  const worker = startWorkerProcess({ env: { ...env, CRASH_JOB_HANG: hang }, module: "./src/server/jobs/worker-crash.fixture.ts", exportName: "crashJobs", cleanUps });
  const [, jobId] = await worker.printed(/hanging in (\S+)/);
  return { worker, jobId: jobId! };
}

const jobState = (database: Database, jobId: string) =>
  queryRows<{ state: string }>(database.db, sql`select state from pgboss.job where id = ${jobId}`).then((rows) => rows[0]?.state);

describe("a worker killed in the middle of a job", () => {
  it.each([
    ["before its effect: the next worker does it", "before" as const],
    ["after its effect, before it was marked done: the next worker finds the claim and does not do it again", "after" as const],
  ])("%s", async (_title, hang) => {
    const where = await meeting(cleanUps);
    const first = await where.open();
    await runMigrations(first);
    await createCrashTables(first.db);
    await enqueueJob(first.db, claimOnceJob, { key: "parcel-1" });
    await where.handOver();

    const { worker: killed, jobId } = await workerProcess(where.childEnv, hang);
    await killWorker(killed);
    const child = killed.child;

    const database = await where.open();
    expect(await jobState(database, jobId)).toBe("active");
    const worker: JobWorker = await startJobWorker(database, [claimOnceJob], { log: logger, pollingIntervalSeconds: 0.2, maintenanceIntervalSeconds: 1 });
    cleanUps.push(() => worker.stop());

    await vi.waitFor(async () => expect(await jobState(database, jobId)).toBe("completed"), { timeout: 20_000, interval: 250 });
    const tries = await crashTries(database.db);
    expect(tries.map(({ attempt, pid }) => [attempt, pid])).toEqual([
      [1, child.pid],
      [2, process.pid],
    ]);
    expect(tries.every((entry) => entry.job_id === jobId)).toBe(true);
    expect(await crashEffects(database.db)).toEqual([{ key: "parcel-1", pid: hang === "after" ? child.pid : process.pid }]);
  }, 90_000);
});
