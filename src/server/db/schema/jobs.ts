import { index, integer, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { timestamps } from "./columns";

/**
 * The job queue's own record of who runs what (src/server/jobs/heartbeat.ts), beside pg-boss's tables: pg-boss knows
 * a job is active, not which process has it. Each running job worker has a row it beats every few seconds (database
 * time); a worker whose beat is older than a few missed beats is dead, and the tries it held are handed back to the
 * queue at once instead of waiting out their expiry. A worker that stops cleanly deletes its row.
 */
export const jobWorker = pgTable("job_worker", {
  id: uuid().primaryKey(),
  host: text().notNull(),
  pid: integer().notNull(),
  /** How often this worker beats: it counts as dead once `beatAt` is a few of these old. */
  beatSeconds: integer().notNull(),
  startedAt: timestamp({ withTimezone: true, mode: "date" }).notNull().defaultNow(),
  beatAt: timestamp({ withTimezone: true, mode: "date" }).notNull().defaultNow(),
  ...timestamps,
});

/**
 * A try of a job a worker took from the queue and runs now: the job's id in pg-boss and its retry count when taken
 * (together they name the try, as pg-boss's settle fence does), and its queue. Gone when the try ends.
 */
export const jobWorkerTry = pgTable(
  "job_worker_try",
  {
    jobId: uuid().notNull(),
    retryCount: integer().notNull(),
    queue: text().notNull(),
    workerId: uuid()
      .notNull()
      .references(() => jobWorker.id, { onDelete: "cascade" }),
    takenAt: timestamp({ withTimezone: true, mode: "date" }).notNull().defaultNow(),
    ...timestamps,
  },
  (table) => [primaryKey({ columns: [table.jobId, table.retryCount] }), index("job_worker_try_worker_idx").on(table.workerId)],
);
