import "server-only";
import { z } from "zod";
import { getPayments } from "@/server/integrations/payments/payments";
import { defineJob, defineScheduledJob, everyMinute } from "@/server/jobs/define";
import { queueOrderConfirmation } from "./confirmation";
import { replanShipments } from "./shipment-replan";
import { sweepUnpaidOrders } from "./unpaid-sweep";
import { configuredUnpaidHolds } from "./unpaid-holds";

/**
 * Every minute, `sweepUnpaidOrders` with the live or sandbox payment adapters. The queue runs it on one instance per
 * tick; should two runs meet anyway (a slow run and the next tick), each order is locked while it changes, and one
 * already settled is left alone. A failed run is left to the next tick, a minute away.
 */
export const orderExpirySweepJob = defineScheduledJob({
  name: "order-expiry-sweep",
  ...everyMinute,
  expireInSeconds: 600,
  async run({ db, log }) {
    await sweepUnpaidOrders(db, { holds: configuredUnpaidHolds(), paymentsFor: (gateway) => getPayments(gateway) }, log);
  },
});

/**
 * Jobs of this name were queued by the shop before its e-mails went through the outbox; one still waiting writes its
 * e-mail there now. Nothing queues it any more.
 */
export const orderConfirmationEmailJob = defineJob({
  name: "order-confirmation-email",
  schema: z.object({ orderNumber: z.string().min(1) }),
  retry: { limit: 5, delaySeconds: 30, backoff: true },
  expireInSeconds: 120,
  async run({ orderNumber }, { db }) {
    await db.transaction((tx) => queueOrderConfirmation(tx, orderNumber));
  },
});

/**
 * Every hour, the orders waiting to ship follow the calendar as time passes: a future shipment whose day has come
 * becomes ready to ship, and an order that missed a shipping day (or its cut-off) is planned on the next one.
 * Calendar changes re-plan at once; this catches the clock.
 */
export const replanShipmentsJob = defineScheduledJob({
  name: "shipping-replan",
  schedule: "5 * * * *",
  retry: { limit: 3, delaySeconds: 60, backoff: true },
  expireInSeconds: 300,
  async run({ db, log }) {
    const { released, moved } = await replanShipments(db);
    if (released.length > 0) log.info({ event: "ORDER", released }, `${released.length} future shipment(s) are now ready to ship`);
    if (moved.length > 0) log.info({ event: "ORDER", moved: moved.length }, `${moved.length} order(s) moved to the next shipping day`);
  },
});

export const orderJobs = [orderExpirySweepJob, orderConfirmationEmailJob, replanShipmentsJob];
