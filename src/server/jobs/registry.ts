import "server-only";
import { fulfilmentJobs } from "@/server/fulfilment/jobs";
import { marketplaceJobs } from "@/server/marketplace/jobs";
import { messageJobs } from "@/server/messages/outbox";
import { orderConfirmationJobs } from "@/server/orders/confirmation";
import { orderExpiryJobs } from "@/server/orders/expiry-job";
import { shipmentReplanJobs } from "@/server/orders/shipment-replan";
import { rateLimitJobs } from "@/server/rate-limit/service";
import { refundJobs } from "@/server/refunds/jobs";
import { stockReconciliationJobs } from "@/server/stock/reconciliation";
import type { RegisteredJob } from "./worker";

/** Every kind of job the worker runs: each domain's array of job definitions (`<domain>/jobs.ts`). */
export const jobRegistry: readonly RegisteredJob[] = [...orderExpiryJobs, ...orderConfirmationJobs, ...stockReconciliationJobs, ...rateLimitJobs, ...fulfilmentJobs, ...shipmentReplanJobs, ...refundJobs, ...marketplaceJobs, ...messageJobs];
