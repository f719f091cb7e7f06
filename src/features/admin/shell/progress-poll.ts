import type { BulkOfferProgress } from "@/server/marketplace/schemas";

/** SPEC sections 7 and 9: the bulk marketplace progress is polled every 30 seconds, and staff notifications with it. */
export const PROGRESS_POLL_MS = 30_000;

/** How soon a run that has only just started is looked at again, to learn its pace (or that it is already done). */
export const FIRST_LOOK_MS = 1_500;

/**
 * When the top bar reads the bulk progress next: every 30 s (SPEC section 7), but at once when the run should be
 * done by its pace so far, and soon after a run starts, before it has a pace: an update of a hundred offers that
 * finishes in a second otherwise shows "0 of 103 · 0 %" for half a minute. Starting or cancelling a run reads it at
 * once as well (the marketplace queries refresh it).
 */
export function nextProgressRead(progress: BulkOfferProgress["progress"] | undefined): number {
  if (!progress) return PROGRESS_POLL_MS;
  if (progress.currentCount === 0 || progress.msToCompletion === null) return FIRST_LOOK_MS;
  return Math.min(PROGRESS_POLL_MS, Math.max(FIRST_LOOK_MS, progress.msToCompletion + 500));
}
