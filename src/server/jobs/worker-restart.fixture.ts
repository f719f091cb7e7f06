import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/server/db/client";
import { rawRows } from "@/server/db/raw-rows";
import { defineJob } from "./define";

/**
 * The job of worker-restart.int.test.ts, run in a worker process that is killed or stopped while the job runs. Its
 * expiry (2 minutes) and retry delay (1 minute) are far beyond the test's patience: only a try handed back at once
 * is tried again in time. Like a real job it claims its effect; every try is written down with its process and
 * whether it was told that the try before it was handed back. In the process to be killed or stopped,
 * `RESTART_JOB_HANG` says how long the job runs before its effect: `forever`, or a number of milliseconds.
 */
export const handOverJob = defineJob({
  name: "hand-over",
  schema: z.object({ key: z.string().min(1) }),
  retry: { limit: 2, delaySeconds: 60 },
  expireInSeconds: 120,
  async run({ key }, { db, jobId, attempt, previousTryStopped }) {
    await db.execute(sql`insert into restart_try (job_id, attempt, pid, previous_try_stopped) values (${jobId}, ${attempt}, ${process.pid}, ${previousTryStopped ?? false})`);
    const hang = process.env.RESTART_JOB_HANG;
    if (hang) console.log(`running ${jobId}`);
    if (hang === "forever") await new Promise<never>(() => {});
    else if (hang) await new Promise((resolve) => setTimeout(resolve, Number(hang)));
    await db.execute(sql`insert into restart_effect (key, pid) values (${key}, ${process.pid}) on conflict (key) do nothing`);
  },
});

export const restartJobs = [handOverJob];

export async function createRestartTables(db: Db): Promise<void> {
  await db.execute(sql`create table restart_try (job_id text not null, attempt int not null, pid int not null, previous_try_stopped boolean not null)`);
  await db.execute(sql`create table restart_effect (key text primary key, pid int not null)`);
}

export const restartTries = (db: Db) =>
  rawRows<{ job_id: string; attempt: number; pid: number; previous_try_stopped: boolean }>(db, sql`select * from restart_try order by attempt`);
export const restartEffects = (db: Db) => rawRows<{ key: string; pid: number }>(db, sql`select * from restart_effect`);
