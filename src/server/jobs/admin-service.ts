import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { rawRows } from "@/server/db/raw-rows";
import { AppError } from "@/server/errors";
import { logChange } from "@/server/logbook/service";
import { JOB_SCHEMA } from "./boss";
import { withJobClient } from "./queue";
import type { FailedJobRow, JobQueueRow, JobsOverview, RetryJobInput } from "./schemas";

/** The most recent failed jobs shown; older ones are counted per queue. */
const FAILED_SHOWN = 50;

const table = (name: string) => sql.raw(`${JOB_SCHEMA}.${name}`);
/** pg-boss's own queues (the scheduler's) are machinery, not work staff can act on. */
const shopQueue = (column: string) => sql`${sql.raw(column)} not like '\\_\\_pgboss\\_\\_%'`;
/** Milliseconds since 1970, which both drivers answer as a number. */
const epochMs = (column: string) => sql.raw(`(extract(epoch from ${column}) * 1000)::float8`);

/** Every kind of job with its counts, and the failed jobs that staff may retry, newest first. */
export async function jobsOverview(db: Db): Promise<JobsOverview> {
  const queues = await rawRows<{ name: string; waiting: number; active: number; failed: number; done: number; schedule: string | null }>(
    db,
    sql`select q.name,
          (select count(*)::int from ${table("job")} j where j.name = q.name and j.state in ('created', 'retry')) as waiting,
          (select count(*)::int from ${table("job")} j where j.name = q.name and j.state = 'active') as active,
          (select count(*)::int from ${table("job")} j where j.name = q.name and j.state = 'failed') as failed,
          (select count(*)::int from ${table("job")} j where j.name = q.name and j.state = 'completed' and j.completed_on > now() - interval '24 hours') as done,
          s.cron as schedule
        from ${table("queue")} q
        left join ${table("schedule")} s on s.name = q.name
        where ${shopQueue("q.name")}
        order by q.name`,
  );
  const failed = await rawRows<{ id: string; name: string; message: string | null; retry_count: number; created_ms: number; failed_ms: number; data: unknown }>(
    db,
    sql`select id, name, coalesce(output->>'message', output->'value'->>'message') as message, retry_count,
          ${epochMs("created_on")} as created_ms, ${epochMs("completed_on")} as failed_ms, data
        from ${table("job")}
        where state = 'failed' and ${shopQueue("name")}
        order by completed_on desc
        limit ${FAILED_SHOWN}`,
  );
  return {
    queues: queues.map(
      (row): JobQueueRow => ({ name: row.name, waiting: row.waiting, active: row.active, failed: row.failed, doneLast24Hours: row.done, schedule: row.schedule }),
    ),
    failed: failed.map(
      (row): FailedJobRow => ({
        id: row.id,
        queue: row.name,
        error: row.message ?? "no error recorded",
        attempts: row.retry_count + 1,
        queuedAt: new Date(row.created_ms),
        failedAt: new Date(row.failed_ms),
        data: row.data,
      }),
    ),
  };
}

/**
 * Gives a failed job one more try, run by the next free worker, and writes that down in the logbook in the same
 * transaction. A job that is not failed (retried already, or never failed) is a CONFLICT.
 */
export async function retryFailedJob(db: Db, userId: string, { queue, id }: RetryJobInput): Promise<void> {
  await db.transaction(async (tx) => {
    const [job] = await rawRows<{ message: string | null; retry_count: number }>(
      tx,
      sql`select coalesce(output->>'message', output->'value'->>'message') as message, retry_count
          from ${table("job")} where name = ${queue} and id = ${id} and state = 'failed' for update`,
    );
    if (!job) throw new AppError("CONFLICT", "This job has not failed, or it was retried already.");
    await withJobClient(tx, (boss, db) => boss.retry(queue, id, { db }));
    await logChange(tx, {
      userId,
      eventType: "HEALTH_CHECK",
      newState: { queue, jobId: id, attempts: job.retry_count + 1, error: job.message },
      description: `Job ${queue} (${id}) retried by staff after ${job.retry_count + 1} failed tries`,
    });
  });
}
