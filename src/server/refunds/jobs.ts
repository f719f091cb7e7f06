import "server-only";
import type { RegisteredJob } from "@/server/jobs/worker";
import { refundEmailJob } from "./refund-email";
import { refundFollowUpJob, refundSendJob } from "./refund-payout";

/**
 * The refunds' jobs: `refund-send` completes a refund the process did not see through (same request, same key),
 * `refund-follow-up` asks the provider about a refund it has not paid out yet until it is settled, and
 * `refund-email` tells the customer once the money went back.
 */
export const refundJobs: readonly RegisteredJob[] = [refundSendJob, refundFollowUpJob, refundEmailJob];
