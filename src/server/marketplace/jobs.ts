import "server-only";
import type { RegisteredJob } from "@/server/jobs/worker";
import { bulkUpdateJob } from "./bulk-update";
import { orderFeesJob } from "./fees";
import { orderImportJob } from "./order-import";
import { orderPollJob } from "./order-poll";
import { quantityPushJob } from "./quantity-push";
import { requestPollJob } from "./returns-import";
import { shipmentUploadJob } from "./shipment";

/**
 * The marketplace's jobs: `marketplace-quantity-push` tells the marketplace a product's new quantity after every
 * stock change, `marketplace-order-poll` and `marketplace-order-import` bring its orders in, `marketplace-shipment-upload`
 * reports tracking numbers, `marketplace-bulk-update` rewrites every offer in resumable batches, and
 * `marketplace-order-fees` records eBay's fees on an imported order;
 * `marketplace-request-poll` records buyers' returns and cancellations.
 */
export const marketplaceJobs: readonly RegisteredJob[] = [quantityPushJob, orderPollJob, orderImportJob, shipmentUploadJob, bulkUpdateJob, orderFeesJob, requestPollJob];
