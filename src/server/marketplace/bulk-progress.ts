import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { configParams, marketplaceBulkRun } from "@/server/db/schema";
import type { BulkFields, BulkOfferProgress, BulkRunView } from "./schemas";

/*
 * A bulk update's run as staff see it: the run without the job's claim and position, the progress in the top bar
 * (read from the running run's counts) and the BULK_UPDATE_EBAY_OFFERS_CURRENT_ID parameter, and the run's fields
 * in words. The run itself is bulk-update.ts.
 */

const PROGRESS_PARAM = "BULK_UPDATE_EBAY_OFFERS_CURRENT_ID";

export type RunRow = typeof marketplaceBulkRun.$inferSelect;

/** A run as staff see it, without the claim and position the job keeps on it. */
export function bulkRunView(run: RunRow): BulkRunView {
  const { id, status, fields, totalCount, doneCount, failedCount, startedAt, finishedAt, lastError } = run;
  return { id, status, fields, totalCount, doneCount, failedCount, startedAt, finishedAt, lastError };
}

/** Offers the run has dealt with, never more than it set out to do (offers published meanwhile come on top). */
function currentCountOf(run: Pick<RunRow, "doneCount" | "failedCount" | "totalCount">): number {
  return Math.min(run.doneCount + run.failedCount, run.totalCount);
}

export function percentOf(run: Pick<RunRow, "doneCount" | "failedCount" | "totalCount">): number {
  return run.totalCount === 0 ? 100 : Math.floor((currentCountOf(run) / run.totalCount) * 100);
}

/** "less than a minute", "about 1 minute", "about 14 minutes", "about 3 hours", "about 2 days". */
function durationInWords(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return "less than a minute";
  if (minutes < 90) return `about ${minutes} ${minutes === 1 ? "minute" : "minutes"}`;
  const hours = Math.round(minutes / 60);
  if (hours < 36) return `about ${hours} hours`;
  return `about ${Math.round(hours / 24)} days`;
}

export async function runningRun(db: Db): Promise<RunRow | undefined> {
  const [run] = await db.select().from(marketplaceBulkRun).where(eq(marketplaceBulkRun.status, "RUNNING")).limit(1);
  return run;
}

/**
 * SPEC section 3's bulk progress for the top bar (polled every 30 s by every staff member): read from the running
 * run's row, which the job keeps counting, so a poll costs one indexed row. The time left is the pace since the run
 * started applied to what is left, restarts included.
 */
export async function getBulkOfferProgress(db: Db, now: Date = new Date()): Promise<BulkOfferProgress> {
  const run = await runningRun(db);
  if (!run) return { progress: null };
  const currentCount = currentCountOf(run);
  const elapsedMs = now.getTime() - run.startedAt.getTime();
  const msToCompletion = currentCount > 0 && elapsedMs > 0 ? Math.round((elapsedMs / currentCount) * (run.totalCount - currentCount)) : null;
  const estimatedTimeToCompletion = msToCompletion === null ? null : durationInWords(msToCompletion);
  return { progress: { currentPercent: String(percentOf(run)), estimatedTimeToCompletion, msToCompletion, currentCount, totalCount: run.totalCount } };
}

export async function setProgressParam(tx: Db, value: number): Promise<void> {
  await tx
    .insert(configParams)
    .values({ param: PROGRESS_PARAM, value: String(value) })
    .onConflictDoUpdate({ target: configParams.param, set: { value: String(value) } });
}

export function fieldsInWords(fields: BulkFields): string {
  return (["price", "quantity", "description"] as const).filter((field) => fields[field]).join(", ");
}
