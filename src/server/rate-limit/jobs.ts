import "server-only";
import { defineScheduledJob, leftToNextTick } from "@/server/jobs/define";
import { pruneRateLimits } from "./service";

/** Prunes the counters once an hour; a failed round is left to the next one. */
export const rateLimitPruneJob = defineScheduledJob({
  name: "rate-limit-prune",
  schedule: "17 * * * *",
  retry: leftToNextTick,
  async run({ db, log }) {
    const pruned = await pruneRateLimits(db);
    if (pruned > 0) log.info({ pruned }, `pruned ${pruned} old rate-limit counter(s)`);
  },
});

export const rateLimitJobs = [rateLimitPruneJob];
