import "server-only";
import { sql } from "drizzle-orm";
import type { Database, Db } from "@/server/db/client";
import { rawRows } from "@/server/db/raw-rows";
import type { Logger } from "@/server/logger";
import { deleteWorkers, lockDeadWorkers, triesOf, type HeldTry } from "./heartbeat";
import { withJobClient } from "./queue";

/** The output a handed-back try leaves on its job, which the next try reads (`previousTryStopped`). */
type HandedBackOutput = { message: string; handedBack: true };

/** Whether the try before this one was handed back (the output pg-boss kept of it says so). */
export function wasHandedBack(output: unknown): boolean {
  return typeof output === "object" && output !== null && (output as Partial<HandedBackOutput>).handedBack === true;
}

/**
 * Gives tries back to the queue inside `tx`, through pg-boss's API: each is failed as pg-boss fails any try (so it
 * counts against the job's retries, and a job that takes its process down every time still comes to an end), fenced
 * to that very try (one settled or retried meanwhile is left alone), and its retry pulled forward to now instead of
 * after the job's retry delay, since the try did not fail: its worker went away. Each in a savepoint of its own, so
 * that one pg-boss refuses (its queue deleted meanwhile) is left to its expiry and does not hold up the others.
 * Returns the tries handed back, and those that could not be.
 */
export async function handBackTries(tx: Db, tries: readonly HeldTry[], message: string): Promise<{ handedBack: HeldTry[]; refused: { held: HeldTry; error: unknown }[] }> {
  const output: HandedBackOutput = { message, handedBack: true };
  const handedBack: HeldTry[] = [];
  const refused: { held: HeldTry; error: unknown }[] = [];
  for (const held of tries) {
    try {
      const back = await tx.transaction((savepoint) =>
        withJobClient(savepoint, async (boss, db) => {
          // pg-boss 12 answers how many tries it failed, though its CommandResponse type declares no field.
          const failed = (await boss.fail(held.queue, { id: held.jobId, retryCount: held.retryCount }, output, { db })) as { affected?: number };
          if (failed.affected === 0) return false;
          // Moves only a job waiting for its retry: one failed for good (no retries left) stays failed.
          await boss.update(held.queue, undefined, { id: held.jobId, startAfter: 0, db });
          return true;
        }),
      );
      if (back) handedBack.push(held);
    } catch (error) {
      refused.push({ held, error });
    }
  }
  return { handedBack, refused };
}

/** Logs what a hand-back came to. */
export function logHandBack(log: Logger, outcome: Awaited<ReturnType<typeof handBackTries>>, why: string): void {
  for (const held of outcome.handedBack) log.warn({ job: held.queue, jobId: held.jobId }, `job ${held.queue} handed back: ${why}`);
  for (const { held, error } of outcome.refused) {
    log.error({ err: error, job: held.queue, jobId: held.jobId }, `job ${held.queue} could not be handed back (${why}): it is tried again once its time runs out`);
  }
}

/** One pass at a time across the instances: the others skip theirs rather than wait (the next beat comes soon). */
const passLock = sql`hashtextextended('jobs/hand-back-dead-workers', 0)`;

/**
 * Hands back the tries of every dead worker (`lockDeadWorkers`: quiet for a few beats) and forgets those workers, in
 * one transaction under an advisory lock, so that two instances starting together do not both do it. A try on a
 * live worker is never touched, however long it runs: its worker keeps beating. Run by each worker at start and on
 * each of its beats. Returns the tries handed back.
 */
export async function handBackDeadWorkers(database: Database, log: Logger): Promise<HeldTry[]> {
  const { dead, outcome } = await database.db.transaction(async (tx) => {
    const none = { dead: [], outcome: { handedBack: [], refused: [] } };
    const [lock] = await rawRows<{ locked: boolean }>(tx, sql`select pg_try_advisory_xact_lock(${passLock}) as locked`);
    if (!lock?.locked) return none;
    const workers = await lockDeadWorkers(tx, database.kind === "pglite");
    if (workers.length === 0) return none;
    const all: Awaited<ReturnType<typeof handBackTries>> = { handedBack: [], refused: [] };
    for (const worker of workers) {
      const since = worker.beatAt.toISOString();
      const message = `the worker running it (process ${worker.pid} on ${worker.host}) stopped: no heartbeat since ${since}; handed back to be tried again at once`;
      const { handedBack, refused } = await handBackTries(tx, await triesOf(tx, [worker.id]), message);
      all.handedBack.push(...handedBack);
      all.refused.push(...refused);
    }
    await deleteWorkers(
      tx,
      workers.map((worker) => worker.id),
    );
    return { dead: workers, outcome: all };
  });
  logHandBack(log, outcome, "the worker running it stopped");
  if (dead.length > 0) log.info({ workers: dead.map((worker) => `${worker.pid}@${worker.host}`), tries: outcome.handedBack.length }, `${dead.length} stopped job worker(s) forgotten`);
  return outcome.handedBack;
}
