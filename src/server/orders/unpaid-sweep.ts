import "server-only";
import type { Db } from "@/server/db/client";
import type { PaymentGateway, PaymentsPort } from "@/server/integrations/payments/port";
import type { Logger } from "@/server/logger";
import { settlePaymentAndConfirm } from "./confirmation";
import { expireUnpaidOrders, type UnpaidOrderSweep } from "./service";
import { forgetSettledPlacers, type UnpaidHolds } from "./unpaid-holds";

export type OrderExpiryOptions = {
  /** How long unpaid orders hold their pieces (`holdEndsAt`). */
  holds: UnpaidHolds;
  /** The adapter that takes payments for a gateway, to ask about an order's payment. */
  paymentsFor: (gateway: PaymentGateway) => PaymentsPort;
};

/**
 * One run of the sweep (`expireUnpaidOrders`) on the PENDING orders whose hold may be over, settling what it finds as
 * a webhook would: an order found paid gets its confirmation e-mail in the transaction that makes it paid. Last, who
 * placed the orders that are no longer unpaid is forgotten (`forgetSettledPlacers`).
 */
export async function sweepUnpaidOrders(db: Db, options: OrderExpiryOptions, log: Logger, now: Date = new Date()): Promise<UnpaidOrderSweep> {
  const sweep = await expireUnpaidOrders(db, { holds: options.holds, paymentsFor: options.paymentsFor, now, settle: (note) => settlePaymentAndConfirm(now, note) });
  await forgetSettledPlacers(db);
  if (sweep.expired.length > 0) log.info({ event: "ORDER", expired: sweep.expired }, `expired ${sweep.expired.length} unpaid order(s)`);
  if (sweep.paid.length > 0) {
    const paid = sweep.paid.map((order) => order.orderNumber);
    log.warn({ event: "ORDER", paid }, `${paid.length} order(s) were paid at the provider without a webhook saying so`);
  }
  if (sweep.failed.length > 0) log.warn({ event: "ORDER", failed: sweep.failed }, `${sweep.failed.length} unpaid order(s) left for the next sweep: their provider could not be asked`);
  return sweep;
}

