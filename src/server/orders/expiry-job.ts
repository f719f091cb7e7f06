import "server-only";
import { env } from "@/env";
import type { Db } from "@/server/db/client";
import { getPayments } from "@/server/integrations/payments/payments";
import type { PaymentGateway, PaymentsPort } from "@/server/integrations/payments/port";
import { defineScheduledJob, everyMinute } from "@/server/jobs/define";
import type { Logger } from "@/server/logger";
import { queueOrderConfirmation } from "./confirmation";
import { expireUnpaidOrders, type UnpaidOrderSweep } from "./service";

export type OrderExpiryOptions = {
  timeoutMinutes: number;
  /** The adapter that takes payments for a gateway, to ask about an order's payment. */
  paymentsFor: (gateway: PaymentGateway) => PaymentsPort;
};

/**
 * One run of the sweep (`expireUnpaidOrders`) on the PENDING orders older than the timeout, then what a webhook does
 * after a payment: the confirmation e-mail of each order the sweep found paid is queued.
 */
export async function sweepUnpaidOrders(db: Db, options: OrderExpiryOptions, log: Logger, now: Date = new Date()): Promise<UnpaidOrderSweep> {
  const sweep = await expireUnpaidOrders(db, {
    olderThan: new Date(now.getTime() - options.timeoutMinutes * 60_000),
    paymentsFor: options.paymentsFor,
    now,
  });
  for (const { orderNumber } of sweep.paid) await queueOrderConfirmation(db, orderNumber);
  if (sweep.expired.length > 0) log.info({ event: "ORDER", expired: sweep.expired }, `expired ${sweep.expired.length} unpaid order(s)`);
  if (sweep.paid.length > 0) {
    const paid = sweep.paid.map((order) => order.orderNumber);
    log.warn({ event: "ORDER", paid }, `${paid.length} order(s) were paid at the provider without a webhook saying so`);
  }
  if (sweep.failed.length > 0) log.warn({ event: "ORDER", failed: sweep.failed }, `${sweep.failed.length} unpaid order(s) left for the next sweep: their provider could not be asked`);
  return sweep;
}

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
    await sweepUnpaidOrders(db, { timeoutMinutes: env.PENDING_ORDER_TIMEOUT_MINUTES, paymentsFor: (gateway) => getPayments(gateway) }, log);
  },
});

export const orderExpiryJobs = [orderExpirySweepJob];
