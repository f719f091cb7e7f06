import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { openDatabase, type Database } from "@/server/db/client";
import { logger } from "@/server/logger";
import { createTestDatabase, queryRows, type TestDatabase } from "../../../tests/helpers/test-database";
import { installJobQueue } from "./boss";
import { enqueueJob } from "./queue";
import { startJobWorker, type JobWorker } from "./worker";
import { claimOnceJob, crashEffects, crashTries, createCrashTables } from "./worker-crash.fixture";

/**
 * Issue 12, acceptance 5: a worker process is killed (SIGKILL, no chance to clean up) in the middle of a job; once
 * the job's time has run out another worker takes it again, and what the job does happens exactly once. On
 * PostgreSQL (TEST_DATABASE_URL) the other worker is another process on the same database, as with two instances;
 * on PGlite it is the shop started again on the same data folder, as on one machine.
 */

const root = path.resolve(import.meta.dirname, "../../..");
const cleanUps: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanUp of cleanUps.splice(0).reverse()) await cleanUp();
});

/** Where the killed worker and the next one meet: one PostgreSQL database, or one PGlite folder used in turns. */
type Meeting = {
  /** The database for this process, open. */
  open: () => Promise<Database>;
  /** Lets the other process in: PGlite's folder is one process's at a time. */
  handOver: () => Promise<void>;
  childEnv: Record<string, string>;
};

async function meeting(): Promise<Meeting> {
  if (process.env.TEST_DATABASE_URL) {
    const test: TestDatabase = await createTestDatabase();
    cleanUps.push(() => test.dispose());
    return { open: async () => test.database, handOver: async () => {}, childEnv: { CRASH_DATABASE_URL: test.database.url! } };
  }
  const folder = mkdtempSync(path.join(os.tmpdir(), "worker-crash-"));
  const dataDir = path.join(folder, "pglite");
  cleanUps.push(() => rmSync(folder, { recursive: true, force: true }));
  let opened: Database | undefined;
  cleanUps.push(async () => {
    await opened?.close();
  });
  return {
    open: async () => (opened ??= openDatabase({ dataDir })),
    handOver: async () => {
      await opened?.close();
      opened = undefined;
    },
    childEnv: { CRASH_DATA_DIR: dataDir },
  };
}

/** A worker in a process of its own, running `claimOnceJob`, which stops in the job as `hang` says. */
async function workerProcess(env: Record<string, string>, hang: "before" | "after"): Promise<{ child: ChildProcess; jobId: string }> {
  const script = [
    "await import('./src/server/config/apply-embedded-defaults.ts');",
    "const { openDatabase } = await import('./src/server/db/client.ts');",
    "const { logger } = await import('./src/server/logger.ts');",
    "const { startJobWorker } = await import('./src/server/jobs/worker.ts');",
    "const { claimOnceJob } = await import('./src/server/jobs/worker-crash.fixture.ts');",
    "const database = openDatabase({ url: process.env.CRASH_DATABASE_URL, dataDir: process.env.CRASH_DATA_DIR });",
    "await startJobWorker(database, [claimOnceJob], { log: logger, pollingIntervalSeconds: 0.2 });",
  ].join("\n");
  // Node itself with tsx's loader, so that the pid killed is the worker's own.
  const child = spawn(process.execPath, ["--import", "tsx", "--conditions", "react-server", "--input-type=module", "-e", script], {
    cwd: root,
    env: { ...process.env, ...env, CRASH_JOB_HANG: hang },
    stdio: ["ignore", "pipe", "pipe"],
  });
  cleanUps.push(() => {
    child.kill("SIGKILL");
  });
  let output = "";
  const jobId = await new Promise<string>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const hanging = /hanging in (\S+)/.exec(output);
      if (hanging) resolve(hanging[1]!);
    });
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => reject(new Error(`the worker process ended (${code}) before taking the job:\n${output}`)));
  });
  return { child, jobId };
}

async function kill(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
}

const jobState = (database: Database, jobId: string) =>
  queryRows<{ state: string }>(database.db, sql`select state from pgboss.job where id = ${jobId}`).then((rows) => rows[0]?.state);

describe("a worker killed in the middle of a job", () => {
  it.each([
    ["before its effect: the next worker does it", "before" as const],
    ["after its effect, before it was marked done: the next worker finds the claim and does not do it again", "after" as const],
  ])("%s", async (_title, hang) => {
    const where = await meeting();
    const first = await where.open();
    await installJobQueue(first);
    await createCrashTables(first.db);
    await enqueueJob(first.db, claimOnceJob, { key: "parcel-1" });
    await where.handOver();

    const { child, jobId } = await workerProcess(where.childEnv, hang);
    await kill(child);

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
