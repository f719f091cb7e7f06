import { z } from "zod";

/** One kind of job as staff see it: how many wait, run and failed, and how many were done in the last 24 hours. */
export type JobQueueRow = {
  name: string;
  /** Queued, or waiting for a retry (also those due later). */
  waiting: number;
  active: number;
  /** Failed for good: every retry spent. Kept a week for staff to retry. */
  failed: number;
  doneLast24Hours: number;
  /** A cron expression (UTC) when the job runs on its own. */
  schedule: string | null;
};

export type FailedJobRow = {
  id: string;
  queue: string;
  /** What the last try threw. */
  error: string;
  /** Tries made, the first one included. */
  attempts: number;
  queuedAt: Date;
  failedAt: Date;
  /** The job's data, as queued. */
  data: unknown;
};

export type JobsOverview = { queues: JobQueueRow[]; failed: FailedJobRow[] };

/** Retrying a failed job: its queue and id, as `FailedJobRow` shows them. */
export const retryJobInput = z.object({
  queue: z.string().trim().min(1).max(100),
  id: z.uuid(),
});
export type RetryJobInput = z.infer<typeof retryJobInput>;
