import "server-only";
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { rawRows } from "@/server/db/raw-rows";
import { jobWorker, jobWorkerTry } from "@/server/db/schema";

/*
 * Which worker runs which try of a job, so that the tries of a worker that died are handed back to the queue at once
 * (hand-back.ts) rather than when pg-boss finds their time ran out. pg-boss marks a job active when a worker takes it,
 * but does not record which: its instance registry beats every 30 s at the least, and its own per-job heartbeat
 * fails a job no sooner than 10 s after a missed beat, on its supervision round. Times are the database's (`now()`),
 * so that instances whose clocks differ agree on who is quiet.
 */

/** How often a worker says it is alive, unless told otherwise. */
export const BEAT_SECONDS = 2;
/** A worker that missed this many beats in a row is dead (a slow job on a live worker never is: the beat goes on). */
export const QUIET_BEATS = 3;

/** A try of a job, as pg-boss's settle fence names it: the job and its retry count when it was taken. */
export type HeldTry = { queue: string; jobId: string; retryCount: number };

/** Records a worker starting on this host and process; returns its id. */
export async function registerWorker(db: Db, beatSeconds: number): Promise<string> {
  const id = randomUUID();
  await db.insert(jobWorker).values({ id, host: hostname(), pid: process.pid, beatSeconds });
  return id;
}

/**
 * The worker's beat. "lost" when its row was gone: it was quiet long enough to count as dead (a process paused, a
 * database out of reach), so the tries it held were handed back and may run elsewhere; the row is made again.
 */
export async function beat(db: Db, workerId: string, beatSeconds: number): Promise<"alive" | "lost"> {
  const updated = await db.update(jobWorker).set({ beatAt: sql`now()` }).where(eq(jobWorker.id, workerId)).returning({ id: jobWorker.id });
  if (updated.length > 0) return "alive";
  await db.insert(jobWorker).values({ id: workerId, host: hostname(), pid: process.pid, beatSeconds }).onConflictDoNothing();
  return "lost";
}

/** A worker that stops cleanly, having handed back what it still held, leaves no row behind. */
export async function forgetWorker(db: Db, workerId: string): Promise<void> {
  await db.delete(jobWorker).where(eq(jobWorker.id, workerId));
}

/** Notes that the worker took this try; a worker declared dead meanwhile has no row, and its try is not noted. */
export async function holdTry(db: Db, workerId: string, held: HeldTry): Promise<void> {
  await db.execute(sql`insert into ${jobWorkerTry} (job_id, retry_count, queue, worker_id)
    select ${held.jobId}, ${held.retryCount}, ${held.queue}, id from ${jobWorker} where id = ${workerId}
    on conflict do nothing`);
}

/** The try ended (done, failed or handed back). */
export async function releaseTry(db: Db, held: HeldTry): Promise<void> {
  await db.delete(jobWorkerTry).where(and(eq(jobWorkerTry.jobId, held.jobId), eq(jobWorkerTry.retryCount, held.retryCount)));
}

/**
 * Locks and returns the workers that are dead: quiet for `QUIET_BEATS` of their own beats, and on PGlite also every
 * other process's (its folder is one process's at a time, db/lock.ts, so a row another process left is from one that
 * ended). Rows of this process are left to their beat: tests run several workers in one process.
 */
export async function lockDeadWorkers(tx: Db, pglite: boolean): Promise<{ id: string; host: string; pid: number; beatAt: Date }[]> {
  const otherProcess = pglite ? sql`or pid <> ${process.pid}` : sql``;
  const rows = await rawRows<{ id: string; host: string; pid: number; beat_at: Date | string }>(
    tx,
    sql`select id, host, pid, beat_at from ${jobWorker}
        where beat_at < now() - beat_seconds * ${QUIET_BEATS} * interval '1 second' ${otherProcess}
        for update skip locked`,
  );
  return rows.map((row) => ({ id: row.id, host: row.host, pid: row.pid, beatAt: new Date(row.beat_at) }));
}

/** The tries the given workers held, oldest first. */
export async function triesOf(tx: Db, workerIds: string[]): Promise<HeldTry[]> {
  if (workerIds.length === 0) return [];
  return tx
    .select({ queue: jobWorkerTry.queue, jobId: jobWorkerTry.jobId, retryCount: jobWorkerTry.retryCount })
    .from(jobWorkerTry)
    .where(inArray(jobWorkerTry.workerId, workerIds))
    .orderBy(jobWorkerTry.takenAt);
}

/** Deletes the workers' rows, and with them the tries they held. */
export async function deleteWorkers(tx: Db, workerIds: string[]): Promise<void> {
  if (workerIds.length > 0) await tx.delete(jobWorker).where(inArray(jobWorker.id, workerIds));
}
