import "server-only";
import { env } from "@/env";
import { afterPaymentWebhook } from "./confirmation";
import { shopUrl } from "@/server/config/shop-url";
import type { Db } from "@/server/db/client";
import { getMail } from "@/server/integrations/mail/mail";
import type { MailPort } from "@/server/integrations/mail/port";
import { getPayments } from "@/server/integrations/payments/payments";
import type { PaymentGateway, PaymentsPort } from "@/server/integrations/payments/port";
import type { Logger } from "@/server/logger";
import { expireUnpaidOrders, type UnpaidOrderSweep } from "./service";

/** How often the sweep looks for unpaid orders that have run out of time. */
export const ORDER_EXPIRY_SWEEP_MS = 60_000;

export type OrderExpiryOptions = {
  timeoutMinutes: number;
  /** The adapter that takes payments for a gateway, to ask about an order's payment. */
  paymentsFor: (gateway: PaymentGateway) => PaymentsPort;
  /** What the confirmation e-mail of an order found paid needs, as the webhook routes give it. */
  confirmation: { mail: MailPort; origin: string; tokenSecret: string; shopName: string };
};

/**
 * One run of the sweep (`expireUnpaidOrders`) on the PENDING orders older than the timeout, then what a webhook
 * route does after a payment: the confirmation e-mail of each order the sweep found paid. A failed e-mail is logged
 * and left, as in the routes.
 */
export async function sweepUnpaidOrders(db: Db, options: OrderExpiryOptions, log: Logger, now: Date = new Date()): Promise<UnpaidOrderSweep> {
  const sweep = await expireUnpaidOrders(db, {
    olderThan: new Date(now.getTime() - options.timeoutMinutes * 60_000),
    paymentsFor: options.paymentsFor,
    now,
  });
  for (const { orderNumber, outcome } of sweep.paid) {
    try {
      await afterPaymentWebhook(db, outcome, options.confirmation);
    } catch (error) {
      log.error({ event: "ORDER", orderNumber, err: error }, "the order confirmation e-mail could not be sent");
    }
  }
  if (sweep.expired.length > 0) log.info({ event: "ORDER", expired: sweep.expired }, `expired ${sweep.expired.length} unpaid order(s)`);
  if (sweep.paid.length > 0) {
    const paid = sweep.paid.map((order) => order.orderNumber);
    log.warn({ event: "ORDER", paid }, `${paid.length} order(s) were paid at the provider without a webhook saying so`);
  }
  if (sweep.failed.length > 0) log.warn({ event: "ORDER", failed: sweep.failed }, `${sweep.failed.length} unpaid order(s) left for the next sweep: their provider could not be asked`);
  return sweep;
}

/**
 * The background job that expires unpaid orders: every minute, `sweepUnpaidOrders` with the live or sandbox payment
 * adapters and the shop's mail. Several app instances may run it at once: each order is locked while it changes,
 * and one already settled is left alone. Returns a function that stops it.
 */
export function startOrderExpiryJob(db: Db, timeoutMinutes: number, log: Logger): () => void {
  const options: OrderExpiryOptions = {
    timeoutMinutes,
    paymentsFor: (gateway) => getPayments(gateway),
    confirmation: { mail: getMail(db), origin: shopUrl(), tokenSecret: env.TOKEN_SECRET, shopName: env.SHOP_NAME },
  };
  let running = false;
  const sweep = async () => {
    if (running) return;
    running = true;
    try {
      await sweepUnpaidOrders(db, options, log);
    } catch (error) {
      log.error({ event: "ORDER", err: error }, "the unpaid order sweep failed");
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void sweep(), ORDER_EXPIRY_SWEEP_MS);
  timer.unref();
  return () => clearInterval(timer);
}
