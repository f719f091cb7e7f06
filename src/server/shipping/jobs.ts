import "server-only";
import { defineScheduledJob } from "@/server/jobs/define";
import { replanShipments } from "./calendar";

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

export const shippingJobs = [replanShipmentsJob];
