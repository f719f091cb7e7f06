import "server-only";
import { z } from "zod";
import { errorMessage } from "@/lib/error-message";
import { rowId } from "@/lib/id";
import type { Db } from "@/server/db/client";
import { AppError } from "@/server/errors";
import { CarrierError } from "@/server/integrations/carriers/port";
import { defineJob, defineScheduledJob } from "@/server/jobs/define";
import { enqueueJob } from "@/server/jobs/queue";
import { getPrivateStorage, getStorage } from "@/server/integrations/storage/storage";
import { logOrderChange } from "@/server/logbook/service";
import { notifyStaff } from "@/server/notifications/service";
import type { LabelRequests } from "./schemas";
import { movePublicLabels } from "./label-move";
import { checkLabelRequests, createLabel } from "./labels";
import type { FulfilmentActor } from "./ports";
import { pollTracking } from "./tracking";
import { queueShippingEmail } from "./shipping-email";

const createLabelRetry = { limit: 3, delaySeconds: 60, backoff: true };

/**
 * Buys one order's label (`createLabel`). A refusal (the order got a label or was cancelled meanwhile) and a carrier
 * that refuses the parcel itself (a 4xx: a bad address, an unknown product) are final and put before staff; anything
 * else (the carrier down, a timeout) is retried.
 */
export const createLabelJob = defineJob({
  name: "create-label",
  schema: z.object({ orderId: rowId, userId: z.string().nullable() }),
  retry: createLabelRetry,
  // A carrier answers in seconds; the claim of a try that dies is taken over after ten minutes (labels.ts).
  expireInSeconds: 300,
  async run({ orderId, userId }, { db, attempt }) {
    try {
      await createLabel(db, orderId, { userId });
    } catch (error) {
      const message = `No label was created for order ${orderId}: ${errorMessage(error)}`;
      if (error instanceof AppError) {
        await logOrderChange(db, orderId, { userId, logLevel: "WARNING", description: message });
        return;
      }
      const rejected = error instanceof CarrierError && error.status >= 400 && error.status < 500 && error.status !== 429;
      if (rejected || attempt > createLabelRetry.limit) await notifyStaff(db, { type: "ORDER", severity: "ERROR", message });
      if (!rejected) throw error;
    }
  },
});

/** Every half hour; each run asks about a bounded batch of parcels, each parcel at most every few hours. */
export const trackingPollJob = defineScheduledJob({
  name: "tracking-poll",
  schedule: "*/30 * * * *",
  expireInSeconds: 600,
  async run({ db, log }) {
    const poll = await pollTracking(db);
    if (poll.shipped.length > 0 || poll.delivered.length > 0) log.info({ event: "TRACKING", shipped: poll.shipped, delivered: poll.delivered }, `tracking: ${poll.shipped.length} shipped, ${poll.delivered.length} delivered`);
    if (poll.failed.length > 0) log.warn({ event: "TRACKING", failed: poll.failed }, `tracking: ${poll.failed.length} parcel(s) could not be asked about`);
  },
});

/**
 * Queued at every start with live storage (src/server/startup.ts): moves labels left in the public bucket by an older
 * version to the private one (`movePublicLabels`). In the background, so that a shop with years of labels starts at
 * once; retried until every label is private. After the first run it finds nothing and costs one listing.
 */
export const movePublicLabelsJob = defineJob({
  name: "move-public-labels",
  schema: z.object({}),
  retry: { limit: 10, delaySeconds: 60, backoff: true },
  expireInSeconds: 3600,
  async run(_data, { db, log }) {
    const moved = await movePublicLabels(db, { from: getStorage(), to: getPrivateStorage() });
    if (moved.length > 0) log.warn({ event: "STORAGE", moved: moved.length }, `moved ${moved.length} label(s) from the public bucket to the private storage`);
  },
});

/**
 * Jobs of this name were queued by the shop before its e-mails went through the outbox; one still waiting writes its
 * e-mail there now. Nothing queues it any more.
 */
export const shippingEmailJob = defineJob({
  name: "shipping-email",
  schema: z.object({ orderNumber: z.string().min(1).max(40) }),
  retry: { limit: 5, delaySeconds: 60, backoff: true },
  expireInSeconds: 120,
  async run({ orderNumber }, { db }) {
    await db.transaction((tx) => queueShippingEmail(tx, orderNumber));
  },
});

export const fulfilmentJobs = [createLabelJob, shippingEmailJob, trackingPollJob, movePublicLabelsJob];

/**
 * Queues one create-label job per order that can get a label, and says why the others cannot. At most one job per
 * order waits at a time; the job itself claims the label, so a second request is refused there too.
 */
export async function queueLabels(db: Db, orderIds: readonly number[], actor: FulfilmentActor): Promise<LabelRequests> {
  const { ready, refused } = await checkLabelRequests(db, orderIds, actor.now);
  await db.transaction(async (tx) => {
    for (const { orderId } of ready) {
      await enqueueJob(tx, createLabelJob, { orderId, userId: actor.userId }, { singletonKey: `create-label-${orderId}` });
    }
  });
  return { queued: ready, refused };
}
