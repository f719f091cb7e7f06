import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/server/db/client";
import { rawRows } from "@/server/db/raw-rows";
import { defineJob } from "./define";

/**
 * The job of worker-crash.int.test.ts, which runs it in a worker process of its own and kills that process in the
 * middle of it. It does what a real job does (an e-mail, a label): it claims its effect, so a second try after a
 * crash finds the claim and does not repeat it. Every try is written down, with the process that made it.
 * In the process to be killed, `CRASH_JOB_HANG` says where the job stops and waits for the kill: `before` its effect
 * or `after` it (committed, but the job not yet marked done).
 */
export const claimOnceJob = defineJob({
  name: "claim-once",
  schema: z.object({ key: z.string().min(1) }),
  retry: { limit: 2, delaySeconds: 0 },
  expireInSeconds: 2,
  async run({ key }, { db, jobId, attempt }) {
    await db.execute(sql`insert into crash_try (job_id, attempt, pid) values (${jobId}, ${attempt}, ${process.pid})`);
    if (process.env.CRASH_JOB_HANG === "before") await hang(jobId);
    await db.execute(sql`insert into crash_effect (key, pid) values (${key}, ${process.pid}) on conflict (key) do nothing`);
    if (process.env.CRASH_JOB_HANG === "after") await hang(jobId);
  },
});

export const crashJobs = [claimOnceJob];

async function hang(jobId: string): Promise<never> {
  console.log(`hanging in ${jobId}`);
  return new Promise<never>(() => {});
}

export async function createCrashTables(db: Db): Promise<void> {
  await db.execute(sql`create table crash_try (job_id text not null, attempt int not null, pid int not null)`);
  await db.execute(sql`create table crash_effect (key text primary key, pid int not null)`);
}

export const crashTries = (db: Db) => rawRows<{ job_id: string; attempt: number; pid: number }>(db, sql`select * from crash_try order by attempt`);
export const crashEffects = (db: Db) => rawRows<{ key: string; pid: number }>(db, sql`select * from crash_effect`);
