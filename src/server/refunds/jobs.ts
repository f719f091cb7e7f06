import "server-only";
import type { RegisteredJob } from "@/server/jobs/worker";
import { queueRefundEmail } from "./refund-email";
import { defineRefundJob } from "./refund-job";
import { refundFollowUpJob, refundSendJob } from "./refund-payout";

/**
 * Jobs of this name were queued by the shop before its e-mails went through the outbox; one still waiting writes its
 * e-mail there now. Nothing queues it any more.
 */
export const refundEmailJob = defineRefundJob({
  name: "refund-email",
  retry: { limit: 5, delaySeconds: 60, backoff: true },
  async run({ refundId }, { db }) {
    await db.transaction((tx) => queueRefundEmail(tx, refundId));
  },
});

/**
 * The refunds' jobs: `refund-send` completes a refund the process did not see through (same request, same key),
 * `refund-follow-up` asks the provider about a refund it has not paid out yet until it is settled, and
 * `refund-email` tells the customer once the money went back.
 */
export const refundJobs: readonly RegisteredJob[] = [refundSendJob, refundFollowUpJob, refundEmailJob];
