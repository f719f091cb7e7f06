import "server-only";
import { fulfilmentJobs } from "@/server/fulfilment/jobs";
import type { RegisteredJob } from "@/server/jobs/worker";
import { marketplaceJobs } from "@/server/marketplace/jobs";
import { messageJobs } from "@/server/messages/jobs";
import { orderJobs } from "@/server/orders/jobs";
import { rateLimitJobs } from "@/server/rate-limit/jobs";
import { refundJobs } from "@/server/refunds/jobs";
import { stockJobs } from "@/server/stock/jobs";

/**
 * Every kind of job the worker runs: each domain's array of job definitions (`<domain>/jobs.ts`). It sits at the top,
 * beside the router tree, because it names every domain; the queue (`jobs/`) below knows none of them.
 */
export const jobRegistry: readonly RegisteredJob[] = [...orderJobs, ...stockJobs, ...rateLimitJobs, ...fulfilmentJobs, ...refundJobs, ...marketplaceJobs, ...messageJobs];
