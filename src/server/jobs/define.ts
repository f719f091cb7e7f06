import { z } from "zod";
import type { Db } from "@/server/db/client";
import type { Logger } from "@/server/logger";

/**
 * A kind of background job (ARCHITECTURE section 1): e-mails, labels, tracking polls, the unpaid-order sweep and,
 * later, marketplace pushes. A domain defines its jobs beside its service (`<domain>/jobs.ts`), `job-registry.ts`
 * (beside `root.ts`) lists them all and the queue runs them: retried with backoff when `run` throws, and done once
 * whichever instance takes them.
 * A job's `run` must be safe to run again after a crash half-way (claim before acting, as the e-mails do).
 */
export type JobContext = {
  db: Db;
  log: Logger;
  /** The queue's id of this job, for the logbook. */
  jobId: string;
  /** 1 on the first try, 2 on the first retry, ... */
  attempt: number;
  /**
   * The try before this one was handed back because its worker went away (its process was killed, or stopped with
   * the try still running): whatever it had claimed is no longer on its way anywhere. Not so on a first try, after
   * a throw, or after an expiry, whose try may still be running in a live process. One exception: a worker quiet for
   * several beats while alive (a process paused that long) counts as gone, and then this says so wrongly.
   */
  previousTryStopped?: boolean;
};

export type JobDefinition<T = unknown> = {
  /** Unique, kebab-case: `shipping-email`, `create-label`, `order-expiry-sweep`. */
  name: string;
  /** Checks the data when it is queued and again when it runs. */
  schema: z.ZodType<T>;
  run(data: T, context: JobContext): Promise<void>;
  /** How often a failed job is tried again, and how long it waits first (doubling each time with `backoff`). */
  retry?: { limit: number; delaySeconds: number; backoff?: boolean };
  /** How long one try may take before the queue counts it as failed (and retries it). */
  expireInSeconds?: number;
  /** A cron expression (UTC) for jobs that run on their own, once per tick across all instances. */
  schedule?: string;
};

export function defineJob<T>(definition: JobDefinition<T>): JobDefinition<T> {
  return definition;
}

const noData = z.object({});

/**
 * A job that runs on its own on `schedule` and carries no data: each tick does the whole round (a sweep, a poll, a
 * check), so `run` gets the context alone.
 */
export function defineScheduledJob(
  definition: Omit<JobDefinition, "schema" | "run" | "schedule"> & { schedule: string; run(context: JobContext): Promise<void> },
): JobDefinition<z.infer<typeof noData>> {
  return { ...definition, schema: noData, run: (_data, context) => definition.run(context) };
}

/** The retry of a scheduled job whose failed run is left to the next tick, which does the whole round again anyway. */
export const leftToNextTick = { limit: 0, delaySeconds: 0 };

/** A scheduled job that runs every minute (UTC) and leaves a failed run to the next minute's. */
export const everyMinute = { schedule: "* * * * *", retry: leftToNextTick };
