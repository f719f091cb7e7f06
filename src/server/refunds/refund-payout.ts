import "server-only";
import { and, eq, isNotNull } from "drizzle-orm";
import { z } from "zod";
import { errorMessage } from "@/lib/error-message";
import { isOnlinePaymentMethod } from "@/lib/payment-methods";
import { rowId } from "@/lib/id";
import type { Db } from "@/server/db/client";
import { lockExistingRow } from "@/server/db/lock-row";
import { order, orderItem, refund } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { getMarketplace } from "@/server/integrations/marketplace/marketplace";
import type { MarketplacePort } from "@/server/integrations/marketplace/port";
import { getPayments } from "@/server/integrations/payments/payments";
import { gatewayForMethod, isRefundOutcomeUnknown, type PaymentGateway, type PaymentsPort, type ProviderRefund } from "@/server/integrations/payments/port";
import { defineJob } from "@/server/jobs/define";
import { enqueueJob } from "@/server/jobs/queue";
import { logger } from "@/server/logger";
import { notifyStaff } from "@/server/notifications/service";
import { selectOrderWithDetails } from "@/server/orders/order-rows";
import { bookStock } from "@/server/stock/service";
import { marketplaceRefundPayee, type RefundPayee } from "./marketplace-payee";
import { bookedPieces, moneyWentBack } from "./money-back";
import { defineRefundJob } from "./refund-job";
import { describeRefund, logRefundChange, type RefundActor } from "./refund-log";
import { refundMachine } from "./refund-machine";
import { readRefundRows, type RefundRow } from "./refund-rows";
import { followUpDelayMs, FOLLOW_UP_CHECKS } from "./rules";
import { recordSalesShare } from "@/server/orders/sales-rollup";

/*
 * Paying a refund out through the provider that took the payment, and recording its answer; what follows from the
 * money going back is money-back.ts. The provider is asked outside any transaction (a slow provider never holds an
 * order's lock); what it answers is written in one transaction under the order's and the refund's row locks, and
 * only while the refund still waits for that very attempt (its key), so the inline call, the safety-net job and a
 * follow-up can all arrive, in any order, and the first one wins:
 *
 * - accepted (pending or refunded): the provider's refund id and fees are stored, the pieces staff put back are booked
 *   into stock (REFUND ledger rows), the customer's e-mail is queued and an order not shipped yet that is now refunded
 *   in full is cancelled; a refund the provider has not paid out yet stays PENDING and is followed up;
 * - refused: FAILED with the provider's words, staff are told, and nothing else happened (pieces are booked only
 *   when the money went, so there is no stock to take back);
 * - no clear answer (a timeout, a 5xx): it stays PENDING and the same request, with the same key, is made again later.
 */

/**
 * The payment providers and the marketplace refunds go through: the sandbox or live adapters unless a test hands in
 * its own.
 */
export type RefundPorts = { paymentsFor: (gateway: PaymentGateway) => PaymentsPort; marketplace?: () => MarketplacePort };

export function shopRefundPorts(): RefundPorts {
  return { paymentsFor: (gateway) => getPayments(gateway), marketplace: getMarketplace };
}

/** What one attempt at the provider came to. */
export type PayoutOutcome = "accepted" | "refused" | "unknown" | "nothing to do";

async function readRefund(db: Db, refundId: number): Promise<RefundRow> {
  const [row] = await readRefundRows(db, eq(refund.id, refundId));
  if (!row) throw new AppError("NOT_FOUND", `Refund ${refundId} does not exist.`);
  return row;
}

/**
 * Who pays the refund out and the payment's id there: the provider that took the order's payment, or the marketplace
 * for an order sold on it.
 */
async function payeeOf(db: Db, row: RefundRow, ports: RefundPorts): Promise<{ payments: RefundPayee; externalPaymentId: string; orderNumber: string }> {
  const [paid] = await selectOrderWithDetails(db).where(eq(order.id, row.orderId)).limit(1);
  const externalPaymentId = row.originalPaymentId ?? paid?.payment.externalPaymentId ?? null;
  const marketplaceOrderId = paid?.detail.marketplaceOrderId;
  if (paid && marketplaceOrderId && externalPaymentId) {
    const lineItemId = row.refundedOrderItemId === null ? null : await marketplaceLineOf(db, row.refundedOrderItemId);
    const refund = { marketplaceOrderId, lineItemId, amount: row.amount, reason: row.reason, comment: row.comment };
    return { payments: marketplaceRefundPayee((ports.marketplace ?? getMarketplace)(), refund), externalPaymentId, orderNumber: paid.order.orderNumber };
  }
  if (!paid || !externalPaymentId || !isOnlinePaymentMethod(paid.payment.provider)) {
    throw new AppError("INTERNAL_SERVER_ERROR", `Refund ${row.id} is to go through a payment provider, but its order has no payment at one.`);
  }
  return { payments: ports.paymentsFor(gatewayForMethod(paid.payment.provider)), externalPaymentId, orderNumber: paid.order.orderNumber };
}

async function marketplaceLineOf(db: Db, orderItemId: number): Promise<string | null> {
  const [line] = await db.select({ id: orderItem.marketplaceLineItemId }).from(orderItem).where(eq(orderItem.id, orderItemId));
  return line?.id ?? null;
}

/**
 * Sends a PENDING refund that the provider has not accepted yet, with its attempt's key, and records the answer. The
 * inline call after staff give the refund and the `refund-send` job both come here; whichever is second finds the
 * answer recorded, or gets the same refund from the provider for the same key. A payee without idempotency keys
 * (eBay) is sent each attempt once: the attempt is marked sent before the request goes, and whoever comes later asks
 * the payee what the request made (`settleSentRefund`).
 */
export async function sendRefund(db: Db, refundId: number, ports: RefundPorts, actor: RefundActor = { userId: null }): Promise<PayoutOutcome> {
  const row = await readRefund(db, refundId);
  if (row.status !== "PENDING" || row.externalRefundId !== null || !row.monetaryRefund) return "nothing to do";
  const { payments, externalPaymentId, orderNumber } = await payeeOf(db, row, ports);
  if (payments.findRefund) {
    const mark = await db.transaction((tx) => markSent(tx, refundId, row.idempotencyKey, actor.now ?? new Date()));
    if (mark.kind === "settled") return "nothing to do";
    if (mark.kind === "sent before") return settleSentRefund(db, row, { ...payments, findRefund: payments.findRefund }, orderNumber, mark.sentAt, actor);
  }
  let answer: ProviderRefund;
  try {
    answer = await payments.refundPayment({ externalPaymentId, amount: row.amount, description: `Refund for order ${orderNumber}`, idempotencyKey: row.idempotencyKey });
  } catch (error) {
    if (isRefundOutcomeUnknown(error)) {
      await logRefundChange(db, refundId, {
        userId: null,
        logLevel: "WARNING",
        errorData: { message: errorMessage(error), idempotencyKey: row.idempotencyKey },
        description: payments.findRefund
          ? `${describeRefund(row, orderNumber)}: no clear answer from ${payments.provider} (${errorMessage(error)}); it stays PENDING, and ${payments.provider} is asked whether it made the refund rather than sent it again`
          : `${describeRefund(row, orderNumber)}: no clear answer from ${payments.provider} (${errorMessage(error)}); it stays PENDING and is asked again with the same key`,
      });
      return "unknown";
    }
    return db.transaction((tx) => failRefund(tx, refundId, row.idempotencyKey, `${payments.provider} refused it: ${errorMessage(error)}`, actor));
  }
  return db.transaction((tx) => recordAnswer(tx, refundId, row.idempotencyKey, answer, payments.provider, actor));
}

/**
 * Marks the attempt with `key` sent, under the refund's lock, unless it was already: then when it went. An attempt
 * answered meanwhile (or replaced by a retry) is settled.
 */
async function markSent(tx: Db, refundId: number, key: string, now: Date): Promise<{ kind: "send" } | { kind: "sent before"; sentAt: Date } | { kind: "settled" }> {
  const row = await lockRefund(tx, refundId);
  if (row.idempotencyKey !== key || row.status !== "PENDING" || row.externalRefundId !== null) return { kind: "settled" };
  if (row.sentAt) return { kind: "sent before", sentAt: row.sentAt };
  await tx.update(refund).set({ sentAt: now }).where(eq(refund.id, refundId));
  return { kind: "send" };
}

/**
 * How long after sending a payee without idempotency keys is given to list the refund the request made. eBay lists a
 * refund on its order as soon as issue_refund accepts it (PENDING until paid), so a request it still does not list
 * after this never arrived.
 */
export const UNLISTED_REFUND_FAILS_AFTER_MS = 15 * 60_000;

/**
 * An attempt sent to a payee without idempotency keys whose answer was never recorded (no clear answer, or the
 * process ended before it was written): the payee is asked for a refund it made for the same amount and line that no
 * other refund of the order is known by. Found, it is recorded as the answer; not listed long after sending, the
 * request never arrived, and the refund fails so that staff can retry it, which sends a new attempt.
 */
async function settleSentRefund(
  db: Db,
  row: RefundRow,
  payments: RefundPayee & Required<Pick<RefundPayee, "findRefund">>,
  orderNumber: string,
  sentAt: Date,
  actor: RefundActor,
): Promise<PayoutOutcome> {
  const known = await db
    .select({ externalRefundId: refund.externalRefundId })
    .from(refund)
    .where(and(eq(refund.orderId, row.orderId), isNotNull(refund.externalRefundId)));
  const made = await payments.findRefund(known.map((other) => other.externalRefundId!));
  if (made) return db.transaction((tx) => recordAnswer(tx, row.id, row.idempotencyKey, made, payments.provider, actor));
  const waited = (actor.now ?? new Date()).getTime() - sentAt.getTime();
  if (waited < UNLISTED_REFUND_FAILS_AFTER_MS) return "unknown";
  const minutes = Math.round(waited / 60_000);
  return db.transaction((tx) =>
    failRefund(tx, row.id, row.idempotencyKey, `${payments.provider} lists no refund for the request sent ${minutes} minutes ago, so it never arrived`, actor),
  );
}

/**
 * Asks the provider about a refund it accepted but has not paid out yet, and records a settled answer. Returns
 * "unknown" while the provider still has it.
 */
export async function followUpRefund(db: Db, refundId: number, ports: RefundPorts, actor: RefundActor = { userId: null }): Promise<PayoutOutcome> {
  const row = await readRefund(db, refundId);
  if (row.status !== "PENDING" || row.externalRefundId === null) return "nothing to do";
  const { payments, externalPaymentId } = await payeeOf(db, row, ports);
  const answer = await payments.getRefund(externalPaymentId, row.externalRefundId);
  if (answer.status === "pending") return "unknown";
  return db.transaction((tx) => recordAnswer(tx, refundId, row.idempotencyKey, answer, payments.provider, actor));
}

async function orderOf(tx: Db, orderId: number) {
  const [found] = await tx.select({ orderNumber: order.orderNumber, status: order.status }).from(order).where(eq(order.id, orderId));
  if (!found) throw new AppError("NOT_FOUND", `Order ${orderId} does not exist.`);
  return found;
}

/** Locks the refund's order, then the refund (the order first, as everything that changes refunds does). */
async function lockRefund(tx: Db, refundId: number) {
  const [found] = await tx.select({ orderId: refund.orderId }).from(refund).where(eq(refund.id, refundId));
  if (!found) throw new AppError("NOT_FOUND", `Refund ${refundId} does not exist.`);
  await lockExistingRow(tx, order, found.orderId, { id: order.id }, "Order");
  await lockExistingRow(tx, refund, refundId, { id: refund.id }, "Refund");
  return readRefund(tx, refundId);
}

/** Records the provider's answer to the attempt with `key`; an answer to an attempt no longer waited for changes nothing. */
async function recordAnswer(tx: Db, refundId: number, key: string, answer: ProviderRefund, provider: string, actor: RefundActor): Promise<PayoutOutcome> {
  const row = await lockRefund(tx, refundId);
  if (row.idempotencyKey !== key || row.status !== "PENDING") return "nothing to do";
  if (answer.status === "failed" || answer.status === "canceled") {
    const why = answer.failureReason ? `: ${answer.failureReason}` : "";
    return failRefund(tx, refundId, key, `${provider} reports the refund ${answer.status}${why}`, actor);
  }
  const now = actor.now ?? new Date();
  const status = answer.status === "refunded" ? "REFUNDED" : "PENDING";
  if (status !== row.status) refundMachine.assert(refundId, row.status, status);
  const firstAnswer = row.externalRefundId === null;
  const settled = {
    externalRefundId: answer.externalRefundId,
    providerFees: answer.providerFees ?? row.providerFees,
    status,
    settledAt: status === "REFUNDED" ? now : null,
  } as const;
  await tx.update(refund).set(settled).where(eq(refund.id, refundId));
  const { orderNumber } = await orderOf(tx, row.orderId);
  await logRefundChange(tx, refundId, {
    userId: actor.userId,
    previousState: { status: row.status, externalRefundId: row.externalRefundId },
    newState: settled,
    description:
      status === "REFUNDED"
        ? `${describeRefund(row, orderNumber)} paid back by ${provider} (${answer.externalRefundId})`
        : `${describeRefund(row, orderNumber)} accepted by ${provider} (${answer.externalRefundId}); the money is on its way`,
  });
  if (firstAnswer) {
    await moneyWentBack(tx, row, actor);
    if (status === "PENDING") await scheduleFollowUp(tx, refundId, 1, now);
  }
  await recordSalesShare(tx, row.orderId);
  return "accepted";
}

/**
 * Makes the attempt with `key` FAILED: the provider refused it, so nothing went back. Staff are told and may retry it
 * from the order page. A refund the provider accepted and later reported failed had its pieces booked back; they are
 * taken out of stock again where they are still there (and staff are told where not), unless the order was cancelled
 * meanwhile: its cancellation left those pieces to the refund, so they stay.
 */
async function failRefund(tx: Db, refundId: number, key: string, message: string, actor: RefundActor): Promise<PayoutOutcome> {
  const row = await lockRefund(tx, refundId);
  if (row.idempotencyKey !== key || row.status !== "PENDING") return "nothing to do";
  refundMachine.assert(refundId, row.status, "FAILED");
  const now = actor.now ?? new Date();
  const failed = { status: "FAILED", failureMessage: message, settledAt: now } as const;
  await tx.update(refund).set(failed).where(eq(refund.id, refundId));
  const { orderNumber, status: orderStatus } = await orderOf(tx, row.orderId);
  const what = describeRefund(row, orderNumber);

  let stockNote = "";
  const booked = await bookedPieces(tx, refundId);
  if (booked > 0 && orderStatus === "CANCELLED") {
    // The order was cancelled while this refund counted, so the cancellation left its pieces to it: they stay.
    stockNote = ` Its ${booked} piece(s) stay in stock: the order was cancelled meanwhile.`;
  } else if (booked > 0 && row.productId !== null) {
    try {
      // A savepoint: a product sold out meanwhile refuses the booking without undoing the rest.
      await tx.transaction((savepoint) =>
        bookStock(savepoint, {
          productId: row.productId!,
          quantity: -booked,
          type: "REFUND",
          refundId,
          orderItemId: row.refundedOrderItemId ?? undefined,
          userId: actor.userId,
          description: `${what} failed: the ${booked} piece(s) booked back are taken out of stock again`,
        }),
      );
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      stockNote = ` Its ${booked} piece(s) went back in stock and have been sold since; correct the stock if need be.`;
    }
  }
  await logRefundChange(tx, refundId, { userId: actor.userId, logLevel: "ERROR", previousState: { status: row.status }, newState: failed, description: `${what} failed: ${message}.${stockNote}` });
  await notifyStaff(tx, { type: "REFUND", severity: "ERROR", message: `${what} failed: ${message}. Nothing was paid back; retry it from the order page.${stockNote}` });
  await recordSalesShare(tx, row.orderId);
  return "refused";
}

/**
 * Completes a refund whose attempt the process may not have seen through (it died after the refund was committed,
 * or the provider gave no clear answer): queued with the refund, it sends the same request with the same key, or
 * for eBay, which takes no key, asks what the request made. A clear answer ends it; no answer throws, so the queue
 * tries again with backoff, and the last try tells staff.
 */
export const refundSendJob = defineRefundJob({
  name: "refund-send",
  retry: { limit: 8, delaySeconds: 60, backoff: true },
  async run({ refundId }, { db, attempt }) {
    const outcome = await sendRefund(db, refundId, shopRefundPorts());
    if (outcome !== "unknown") return;
    if (attempt > 8) {
      await notifyStaff(db, {
        type: "REFUND",
        severity: "ERROR",
        message: `Refund ${refundId}: the payment provider gave no clear answer after ${attempt} tries; it stays PENDING. Look the payment up at the provider, then retry the job under Jobs.`,
      });
    }
    throw new Error(`Refund ${refundId}: the payment provider gave no clear answer; it is asked again with the same key`);
  },
});

/**
 * Asks the provider about a refund it accepted but has not paid out yet; while it is still pending the next check is
 * queued, further apart each time (`followUpDelayMs`), and after the last one staff are told.
 */
export const refundFollowUpJob = defineJob({
  name: "refund-follow-up",
  schema: z.object({ refundId: rowId, check: z.number().int().positive().max(FOLLOW_UP_CHECKS) }),
  retry: { limit: 0, delaySeconds: 0 },
  expireInSeconds: 120,
  async run({ refundId, check }, { db, log }) {
    let outcome: PayoutOutcome;
    try {
      outcome = await followUpRefund(db, refundId, shopRefundPorts());
    } catch (error) {
      log.warn({ event: "REFUND", refundId, err: error }, "the provider could not be asked about a refund; asked again later");
      outcome = "unknown";
    }
    if (outcome === "unknown") await scheduleFollowUp(db, refundId, check + 1, new Date());
  },
});

/** Queues check number `check` of a refund the provider has not paid out yet, or tells staff after the last one. */
async function scheduleFollowUp(db: Db, refundId: number, check: number, now: Date): Promise<void> {
  if (check > FOLLOW_UP_CHECKS) {
    await notifyStaff(db, {
      type: "REFUND",
      severity: "WARNING",
      message: `Refund ${refundId} is still pending at the payment provider after ${FOLLOW_UP_CHECKS} checks; look it up there.`,
    });
    logger.warn({ event: "REFUND", refundId }, "a refund is still pending at the provider after the last check");
    return;
  }
  await enqueueJob(db, refundFollowUpJob, { refundId, check }, { singletonKey: `refund-follow-up-${refundId}-${check}`, startAfter: new Date(now.getTime() + followUpDelayMs(check)) });
}
