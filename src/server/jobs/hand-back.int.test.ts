import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { logger } from "@/server/logger";
import { databaseForFile, queryRows } from "../../../tests/helpers/test-database";
import { defineJob } from "./define";
import { handBackDeadWorkers } from "./hand-back";
import { enqueueJob, withJobClient } from "./queue";

/**
 * Handing back the tries of workers that stopped beating, on the file's database (PostgreSQL with TEST_DATABASE_URL,
 * PGlite otherwise), with the workers' rows written as a worker would have left them.
 */

const t = databaseForFile();

const parcelJob = defineJob({ name: "hand-back-parcel", schema: z.object({ key: z.string() }), retry: { limit: 3, delaySeconds: 600 }, expireInSeconds: 600, run: async () => {} });

/** Queues a job and takes it, as a worker does: it is active from then on. */
async function takenJob(key: string): Promise<{ id: string; retryCount: number }> {
  await enqueueJob(t.db, parcelJob, { key });
  const [taken] = await withJobClient(t.db, (boss, db) => boss.fetch<{ key: string }>(parcelJob.name, { includeMetadata: true, db }));
  return { id: taken!.id, retryCount: taken!.retryCount };
}

/** A worker's row as it stands `quietSeconds` after its last beat, holding `tries`. */
async function workerRow(id: string, quietSeconds: number, tries: { queue: string; jobId: string; retryCount: number }[]) {
  await t.db.execute(sql`insert into job_worker (id, host, pid, beat_seconds, beat_at) values (${id}, 'other-host', ${process.pid}, 2, now() - ${quietSeconds} * interval '1 second')`);
  for (const held of tries) {
    await t.db.execute(sql`insert into job_worker_try (job_id, retry_count, queue, worker_id) values (${held.jobId}, ${held.retryCount}, ${held.queue}, ${id})`);
  }
}

const jobOf = (id: string) =>
  queryRows<{ state: string; waits: boolean; output: { handedBack?: boolean; message?: string } | null }>(
    t.db,
    sql`select state, start_after > now() as waits, output from pgboss.job where id = ${id}`,
  ).then((rows) => rows[0]);

describe("handing back the tries of dead workers", () => {
  it("hands back a dead worker's tries at once, once between two instances looking together, and leaves a live worker's alone", async () => {
    const dead = await takenJob("dead");
    const alive = await takenJob("alive");
    await workerRow("00000000-0000-4000-8000-00000000000d", 7, [{ queue: parcelJob.name, jobId: dead.id, retryCount: dead.retryCount }]);
    // Quiet for two of its beats: slow, not dead.
    await workerRow("00000000-0000-4000-8000-00000000000a", 4, [{ queue: parcelJob.name, jobId: alive.id, retryCount: alive.retryCount }]);

    const [first, second] = await Promise.all([handBackDeadWorkers(t.database, logger), handBackDeadWorkers(t.database, logger)]);
    expect([...first!, ...second!].map((held) => held.jobId)).toEqual([dead.id]);

    expect(await jobOf(dead.id)).toMatchObject({ state: "retry", waits: false, output: { handedBack: true } });
    expect((await jobOf(dead.id))?.output?.message).toContain("stopped: no heartbeat since");
    expect(await jobOf(alive.id)).toMatchObject({ state: "active", output: null });
    const workers = await queryRows<{ id: string }>(t.db, sql`select id from job_worker order by id`);
    expect(workers.map((worker) => worker.id)).toEqual(["00000000-0000-4000-8000-00000000000a"]);
    expect(await queryRows(t.db, sql`select job_id from job_worker_try where worker_id = '00000000-0000-4000-8000-00000000000d'`)).toEqual([]);
  });

  it("hands back the tries it can when pg-boss refuses one (its queue gone), and forgets the worker", async () => {
    await t.db.execute(sql`delete from job_worker`);
    const held = await takenJob("one");
    await workerRow("00000000-0000-4000-8000-0000000000e1", 60, [
      { queue: "a-queue-deleted-since", jobId: "00000000-0000-4000-8000-0000000000f1", retryCount: 0 },
      { queue: parcelJob.name, jobId: held.id, retryCount: held.retryCount },
    ]);
    expect((await handBackDeadWorkers(t.database, logger)).map((back) => back.jobId)).toEqual([held.id]);
    expect(await jobOf(held.id)).toMatchObject({ state: "retry", waits: false });
    expect(await queryRows(t.db, sql`select id from job_worker`)).toEqual([]);
  });

  it("leaves a try that was settled meanwhile as it is", async () => {
    await t.db.execute(sql`delete from job_worker`);
    const done = await takenJob("done");
    await withJobClient(t.db, (boss, db) => boss.complete(parcelJob.name, done, null, { db }));
    await workerRow("00000000-0000-4000-8000-0000000000c1", 60, [{ queue: parcelJob.name, jobId: done.id, retryCount: done.retryCount }]);
    expect(await handBackDeadWorkers(t.database, logger)).toEqual([]);
    expect(await jobOf(done.id)).toMatchObject({ state: "completed" });
  });
});
