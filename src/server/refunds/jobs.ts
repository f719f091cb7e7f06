import "server-only";
import type { RegisteredJob } from "@/server/jobs/worker";

/** The refunds' jobs: filled in by the refunds work. */
export const refundJobs: readonly RegisteredJob[] = [];
