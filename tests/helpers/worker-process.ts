import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase, type Database } from "@/server/db/client";
import { createTestDatabase, type TestDatabase } from "./test-database";

/**
 * Job workers in processes of their own, for tests that kill one (SIGKILL, no chance to clean up) or stop one
 * (SIGTERM, as a deploy does) in the middle of a job, and let another take over. The processes meet in one database:
 * on PostgreSQL (TEST_DATABASE_URL) one database that both use at once, as two instances do; on PGlite one data
 * folder used in turns, as the shop started again on one machine.
 */

const root = path.resolve(import.meta.dirname, "../..");

export type Meeting = {
  /** The database for this process, open. */
  open: () => Promise<Database>;
  /** Lets the other process in: PGlite's folder is one process's at a time. */
  handOver: () => Promise<void>;
  /** What a worker process needs to open the same database. */
  childEnv: Record<string, string>;
};

/** A fresh place to meet; `cleanUps` gets what closes and removes it. */
export async function meeting(cleanUps: (() => Promise<void> | void)[]): Promise<Meeting> {
  if (process.env.TEST_DATABASE_URL) {
    const test: TestDatabase = await createTestDatabase();
    cleanUps.push(() => test.dispose());
    return { open: async () => test.database, handOver: async () => {}, childEnv: { WORKER_DATABASE_URL: test.database.url! } };
  }
  const folder = mkdtempSync(path.join(os.tmpdir(), "worker-process-"));
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
    childEnv: { WORKER_DATA_DIR: dataDir },
  };
}

export type WorkerProcess = {
  child: ChildProcess;
  /** Settles with the exit code once the process has ended. */
  exited: Promise<number | null>;
  /** Everything it printed so far. */
  output: () => string;
  /** Resolves once it printed a line matching `pattern`, with the match. */
  printed: (pattern: RegExp) => Promise<RegExpExecArray>;
};

/**
 * A worker running the jobs `module` exports as `exportName` (an array of job definitions), on the meeting's
 * database. On SIGTERM it stops the worker (which lets running jobs finish) and exits 0, as the shop's front door
 * does; SIGKILL ends it where it stands.
 */
export function startWorkerProcess(options: {
  env: Record<string, string>;
  module: string;
  exportName: string;
  cleanUps: (() => Promise<void> | void)[];
  /** The worker's own options beyond polling (how long a stop waits, how often it beats). */
  worker?: { stopTimeoutMs?: number; beatSeconds?: number };
}): WorkerProcess {
  const script = [
    "await import('./src/server/config/apply-embedded-defaults.ts');",
    "const { openDatabase } = await import('./src/server/db/client.ts');",
    "const { logger } = await import('./src/server/logger.ts');",
    "const { startJobWorker } = await import('./src/server/jobs/worker.ts');",
    `const jobs = (await import(${JSON.stringify(options.module)}))[${JSON.stringify(options.exportName)}];`,
    "const database = openDatabase({ url: process.env.WORKER_DATABASE_URL, dataDir: process.env.WORKER_DATA_DIR });",
    `const worker = await startJobWorker(database, jobs, { log: logger, pollingIntervalSeconds: 0.2, ...${JSON.stringify(options.worker ?? {})} });`,
    "console.log('worker started');",
    "process.once('SIGTERM', async () => { console.log('stopping'); await worker.stop(); await database.close(); console.log('stopped'); process.exit(0); });",
  ].join("\n");
  // Node itself with tsx's loader, so that the pid signalled is the worker's own.
  const child = spawn(process.execPath, ["--import", "tsx", "--conditions", "react-server", "--input-type=module", "-e", script], {
    cwd: root,
    env: { ...process.env, ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  options.cleanUps.push(() => {
    child.kill("SIGKILL");
  });
  let output = "";
  const waiting: { pattern: RegExp; resolve: (match: RegExpExecArray) => void }[] = [];
  const look = () => {
    for (const wait of [...waiting]) {
      const match = wait.pattern.exec(output);
      if (match) {
        waiting.splice(waiting.indexOf(wait), 1);
        wait.resolve(match);
      }
    }
  };
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
    look();
  });
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    child,
    exited,
    output: () => output,
    printed: (pattern) =>
      new Promise<RegExpExecArray>((resolve, reject) => {
        waiting.push({ pattern, resolve });
        look();
        void exited.then((code) => reject(new Error(`the worker process ended (${code}) before printing ${pattern}:\n${output}`)));
      }),
  };
}

/** SIGKILLs a worker process and waits until it is gone. */
export async function killWorker(worker: WorkerProcess): Promise<void> {
  worker.child.kill("SIGKILL");
  await worker.exited;
}
