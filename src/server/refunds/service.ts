import "server-only";
import { eq, sql } from "drizzle-orm";
import { Decimal } from "decimal.js";
import type { RefundReason } from "@/lib/enums";
import { formatEuro } from "@/lib/money";
import { refundKindOf, refundTypeOf } from "@/lib/refund-kind";
import type { Db } from "@/server/db/client";
import { rawRows } from "@/server/db/raw-rows";
import { order, refund } from "@/server/db/schema";
import { lockExistingRow } from "@/server/db/lock-row";
import { AppError } from "@/server/errors";
import { enqueueJob } from "@/server/jobs/queue";
import { logger } from "@/server/logger";
import { assertStaffChange } from "@/server/orders/staff-status-changes";
import { transitionOrder } from "@/server/orders/service";
import { refundMachine } from "./refund-machine";
import { bookedPieces, moneyWentBack } from "./money-back";
import { logRefundChange, type RefundActor } from "./refund-log";
import { refundSendJob, sendRefund, shopRefundPorts, type RefundPorts } from "./refund-payout";
import { readRefundOrderState, readRefundRows, toRefundView, type RefundOrderState } from "./refund-rows";
import { attemptKey, cancellationRefunds, orderRefusal, proposedLineAmounts, refundRefusal, refundSubject, type RefundRequest } from "./rules";
import { cancelOrderInput, retryRefundInput, type CancelledOrder, type CancelOrderInput, type CreateRefund, type RefundProposal, type RefundView } from "./schemas";
import { recordSalesShare } from "@/server/orders/sales-rollup";

/*
 * Refunds from the order page: what staff may still give back on an order (`getRefundProposal`), giving it
 * (`createRefund`) and trying a refused one again (`retryRefund`). The rules are in rules.ts; paying the money out in
 * refund-payout.ts, and what follows from it in money-back.ts.
 *
 * Giving a refund is two transactions around the provider's call, so that no lock is held while a provider thinks and
 * nothing is ever half done:
 * 1. under the order's lock the rules are checked against every refund before it, and the refund is stored PENDING
 *    with its attempt's idempotency key, logged, and the `refund-send` job queued as the safety net that completes it
 *    should this process die before the provider's answer is recorded;
 * 2. the provider is asked at once, so staff see the outcome, and its answer is recorded (refund-payout.ts).
 * An order paid without a provider (a manual order on account or by bank transfer) has its refund recorded REFUNDED
 * in the first transaction, staff paying it back by hand.
 *
 * Cancelling an order from its page (`cancelOrder`) is the same two steps: the cancellation and the refunds of all
 * that is left to refund in the first transaction, their payout after it.
 */

/** A refund sent to the provider inline is completed by the safety-net job no sooner than this after it was given. */
const SAFETY_NET_DELAY_MS = 60_000;

/** Queues an attempt's safety net: the `refund-send` job, one per attempt (its key names it). */
function queueSafetyNet(tx: Db, refundId: number, idempotencyKey: string, now: Date): Promise<void> {
  return enqueueJob(tx, refundSendJob, { refundId }, { singletonKey: idempotencyKey, startAfter: new Date(now.getTime() + SAFETY_NET_DELAY_MS) });
}

async function readState(db: Db, orderNumber: string, lock: boolean): Promise<RefundOrderState> {
  const state = await readRefundOrderState(db, eq(order.orderNumber, orderNumber), { lock });
  if (!state) throw new AppError("NOT_FOUND", `We cannot find order ${orderNumber}.`);
  return state;
}

async function refundView(db: Db, refundId: number): Promise<RefundView> {
  const [row] = await readRefundRows(db, eq(refund.id, refundId));
  if (!row) throw new AppError("NOT_FOUND", `Refund ${refundId} does not exist.`);
  return toRefundView(row);
}

/** The refusal of an order that cannot be refunded at all now (unpaid, or sold on eBay without being imported), or null. */
function refusalOf(state: RefundOrderState): string | null {
  return orderRefusal(state);
}

/** What cancelling the order would pay back now: nothing while it cannot be refunded (`refusalOf`). */
function plannedCancellation(state: RefundOrderState) {
  return refusalOf(state) ? [] : cancellationRefunds(state.ledger);
}

/** What staff may still give back on an order, line by line with proposed amounts, and its refunds so far. */
export async function getRefundProposal(db: Db, orderNumber: string): Promise<RefundProposal> {
  const state = await readState(db, orderNumber, false);
  const { ledger } = state;
  const cancellation = plannedCancellation(state);
  return {
    orderNumber: state.orderNumber,
    orderStatus: state.status,
    shop: state.shop,
    paymentProvider: state.payment.provider,
    monetary: state.channel !== "manual",
    paidTotal: ledger.paid.toFixed(2),
    refundedTotal: ledger.refunded.toFixed(2),
    leftToRefund: ledger.left.toFixed(2),
    lines: ledger.lines.map((entry) => {
      const line = state.lines.find((candidate) => candidate.orderItemId === entry.line.orderItemId)!;
      return {
        orderItemId: line.orderItemId,
        productId: line.productId,
        name: line.name,
        quantity: line.quantity,
        refundedQuantity: entry.refundedQuantity,
        refundableQuantity: entry.leftQuantity,
        paid: line.totalPrice.toFixed(2),
        leftToRefund: entry.leftAmount.toFixed(2),
        proposedAmounts: proposedLineAmounts(ledger, entry).map((amount) => amount.toFixed(2)),
      };
    }),
    shipping: { paid: ledger.shipping.paid.toFixed(2), refunded: ledger.shipping.refunded.toFixed(2), leftToRefund: ledger.shipping.left.toFixed(2) },
    refunds: state.refunds.map(toRefundView),
    refusal: refusalOf(state),
    cancellation: {
      amount: sumOf(cancellation.map((refund) => refund.amount)).toFixed(2),
      refunds: cancellation.map((refund) => ({
        kind: refund.kind,
        productName: state.lines.find((line) => line.orderItemId === refund.orderItemId)?.name ?? null,
        quantity: refund.quantity ?? null,
        amount: refund.amount.toFixed(2),
      })),
    },
  };
}

const sumOf = (amounts: readonly Decimal[]) => amounts.reduce((total, amount) => total.plus(amount), new Decimal(0));

/** Refuses (with the rules' code and words) a refund that does not fit the order as it stands. */
function assertRefundable(state: RefundOrderState, request: RefundRequest): void {
  const refusal = refusalOf(state);
  if (refusal) throw new AppError("CONFLICT", refusal);
  const unfit = refundRefusal(state.ledger, request, { orderNumber: state.orderNumber, status: state.status });
  if (unfit) throw new AppError(unfit.code, unfit.message);
}

/** The refund's id, taken from its identity sequence first so that its first attempt's key can name it. */
async function nextRefundId(tx: Db): Promise<number> {
  const [row] = await rawRows<{ id: string | number }>(tx, sql`select nextval(pg_get_serial_sequence('"refund"', 'id')) as id`);
  return Number(row!.id);
}

/**
 * Gives a refund: some pieces of one line (PRODUCT, optionally back in stock), the shipping, or a goodwill amount,
 * each with a reason; `input` as `createRefundInput` reads it. Refused when the order cannot be refunded (unpaid, sold
 * on eBay but not imported) or the refund does not fit what is left (CONFLICT, saying the most that can be refunded). Answers the
 * refund as it stands after the provider's answer: REFUNDED, PENDING (the provider has it, or gave no clear answer and
 * is asked again with the same key), or FAILED with the provider's refusal, which staff may retry.
 */
export async function createRefund(db: Db, input: CreateRefund, actor: RefundActor, ports: RefundPorts = shopRefundPorts()): Promise<RefundView> {
  const now = actor.now ?? new Date();
  const created = await db.transaction(async (tx) => {
    const state = await readState(tx, input.orderNumber, true);
    const request: RefundRequest = { kind: input.kind, orderItemId: input.orderItemId, quantity: input.quantity, amount: input.amount, restock: input.restock };
    return storeRefund(tx, state, { ...request, reason: input.reason, comment: input.comment || null }, actor, now);
  });
  if (!created.manual) await sendNow(db, created.id, ports, actor);
  return refundView(db, created.id);
}

/**
 * The first of a refund's two transactions, under the order's lock that `state` was read with: the refund checked
 * against every refund before it, stored and logged; recorded REFUNDED with all that follows (`moneyWentBack`) when
 * staff pay it back by hand, else PENDING with its safety net queued. The caller asks the provider after committing
 * (`sendNow`) when it is not `manual`.
 */
async function storeRefund(
  tx: Db,
  state: RefundOrderState,
  input: RefundRequest & { reason: RefundReason; comment: string | null },
  actor: RefundActor,
  now: Date,
): Promise<{ id: number; manual: boolean }> {
  assertRefundable(state, input);
  const id = await nextRefundId(tx);
  const manual = state.channel === "manual";
  const product = input.kind === "PRODUCT";
  const [row] = await tx
    .insert(refund)
    .values({
      id,
      orderId: state.orderId,
      type: refundTypeOf(input.kind),
      refundedOrderItemId: product ? input.orderItemId : null,
      quantity: product ? input.quantity : null,
      amount: input.amount,
      restockedProduct: product && input.restock,
      reason: input.reason,
      comment: input.comment,
      monetaryRefund: !manual,
      originalPaymentId: manual ? null : state.payment.externalPaymentId,
      status: manual ? "REFUNDED" : "PENDING",
      settledAt: manual ? now : null,
      idempotencyKey: attemptKey(id),
      userId: actor.userId,
    })
    .returning();
  const line = state.lines.find((candidate) => candidate.orderItemId === row!.refundedOrderItemId);
  const subject = refundSubject({ kind: input.kind, quantity: row!.quantity, productName: line?.name ?? null });
  await logRefundChange(tx, id, {
    userId: actor.userId,
    newState: {
      orderNumber: state.orderNumber,
      kind: input.kind,
      orderItemId: row!.refundedOrderItemId,
      quantity: row!.quantity,
      amount: row!.amount,
      restock: row!.restockedProduct,
      reason: row!.reason,
      comment: row!.comment,
      monetary: row!.monetaryRefund,
      status: row!.status,
      idempotencyKey: row!.idempotencyKey,
    },
    description: `Refund ${id} of order ${state.orderNumber}: ${subject}, ${formatEuro(input.amount)} (${input.reason}${row!.restockedProduct ? ", back in stock" : ""}), ${paidBackHow(state)}`,
  });
  if (manual) {
    const [stored] = await readRefundRows(tx, eq(refund.id, id));
    await moneyWentBack(tx, stored!, actor);
  } else {
    await queueSafetyNet(tx, id, row!.idempotencyKey, now);
  }
  await recordSalesShare(tx, state.orderId);
  return { id, manual };
}

/** How an order's refunds reach the customer, as the logbook says it. */
function paidBackHow(state: RefundOrderState): string {
  return state.channel === "manual" ? `recorded as paid back by hand (paid ${state.payment.provider})` : `going back through ${state.payment.provider}`;
}

/** What the refunds a cancellation gives say of themselves, for staff on the order page. */
const CANCELLATION_COMMENT = "The order was cancelled: everything left to refund went back with it, and its pieces went back in stock with the cancellation.";

/**
 * Cancels an order from its page, as a shop owner expects: its pieces go back in stock and, when it was paid, all
 * that is left to refund goes back to the customer with it, through the normal refunds (`cancellationRefunds`: the
 * pieces left of each line, the shipping, and any rest of what was paid), in one transaction under the order's lock.
 * The staff rules of a status change hold (`assertStaffChange`: not shipped, no label), the stock is booked once, by
 * the cancellation (`transitionOrder`), and the cancellation and each refund are logged; anything refused rolls the
 * whole change back. The refunds then go to the provider as `createRefund`'s do, each with its safety net; one the
 * provider refuses is FAILED with staff told, and is retried from the order page like any other. An order paid
 * without a provider has its refunds recorded as paid back by hand. A second cancel finds the order CANCELLED and is
 * refused, so the money goes back once. An order sold on eBay but never imported is cancelled with nothing refunded
 * here (`refusal` says to refund it in Seller Hub).
 */
export async function cancelOrder(db: Db, raw: CancelOrderInput, actor: RefundActor, ports: RefundPorts = shopRefundPorts()): Promise<CancelledOrder> {
  const { orderNumber } = cancelOrderInput.parse(raw);
  const now = actor.now ?? new Date();
  const cancelled = await db.transaction(async (tx) => {
    const before = await readState(tx, orderNumber, true);
    await assertStaffChange(tx, { orderId: before.orderId, orderNumber: before.orderNumber, status: before.status }, "CANCELLED");
    const paid = before.status !== "PENDING";
    const refusal = paid ? refusalOf({ ...before, status: "CANCELLED" }) : null;
    const planned = paid && !refusal ? cancellationRefunds(before.ledger) : [];
    const amount = sumOf(planned.map((refund) => refund.amount));
    const description = !paid
      ? "Cancelled by staff before it was paid."
      : refusal
        ? `Cancelled by staff; nothing is refunded here: ${refusal}`
        : planned.length === 0
          ? "Cancelled by staff; everything paid had been refunded already."
          : `Cancelled by staff: ${formatEuro(amount)} left to refund is ${paidBackHow(before)} (${planned.length === 1 ? "one refund" : `${planned.length} refunds`}).`;
    // The order is cancelled first: its pieces go back in stock through the ledger now, and the refunds after it
    // put none back (their pieces are the cancellation's).
    await transitionOrder(tx, before.orderId, "CANCELLED", { userId: actor.userId, description, now });
    const stored: { id: number; manual: boolean }[] = [];
    for (const refund of planned) {
      // Each refund is checked against the order as the refunds before it left it.
      const state = await readState(tx, orderNumber, true);
      stored.push(await storeRefund(tx, state, { ...refund, restock: false, reason: "OTHER", comment: CANCELLATION_COMMENT }, actor, now));
    }
    return { stored, refusal };
  });
  for (const { id, manual } of cancelled.stored) if (!manual) await sendNow(db, id, ports, actor);
  const refunds: RefundView[] = [];
  for (const { id } of cancelled.stored) refunds.push(await refundView(db, id));
  return { orderNumber, refunds, refusal: cancelled.refusal };
}

/**
 * The provider's call right after the refund was committed. Whatever goes wrong here (the database, the process) the
 * refund is stored PENDING and the queued job completes it, so staff are answered with the refund as it stands.
 */
async function sendNow(db: Db, refundId: number, ports: RefundPorts, actor: RefundActor): Promise<void> {
  try {
    await sendRefund(db, refundId, ports, actor);
  } catch (error) {
    logger.error({ event: "REFUND", refundId, err: error }, "a refund could not be sent at once; its job completes it");
  }
}

/**
 * Tries a FAILED refund again: under the order's lock its amount, pieces and restock must still fit what is left
 * (other refunds may have been given since), and it goes to the provider as a new attempt with a new key, the same
 * way as a new refund.
 */
export async function retryRefund(db: Db, raw: { refundId: number }, actor: RefundActor, ports: RefundPorts = shopRefundPorts()): Promise<RefundView> {
  const { refundId } = retryRefundInput.parse(raw);
  const now = actor.now ?? new Date();
  await db.transaction(async (tx) => {
    const [found] = await tx.select({ orderNumber: order.orderNumber }).from(refund).innerJoin(order, eq(order.id, refund.orderId)).where(eq(refund.id, refundId));
    if (!found) throw new AppError("NOT_FOUND", `Refund ${refundId} does not exist.`);
    const state = await readState(tx, found.orderNumber, true);
    await lockExistingRow(tx, refund, refundId, { id: refund.id }, "Refund");
    const [row] = await readRefundRows(tx, eq(refund.id, refundId));
    if (row!.status !== "FAILED") throw new AppError("CONFLICT", `Refund ${refundId} is ${row!.status}: only a refund that failed can be tried again.`);
    refundMachine.assert(refundId, row!.status, "PENDING");
    const { type, refundedOrderItemId, quantity, amount, restockedProduct, idempotencyKey, failureMessage } = row!;
    assertRefundable(state, {
      kind: refundKindOf({ type, orderItemId: refundedOrderItemId }),
      orderItemId: refundedOrderItemId ?? undefined,
      quantity: quantity ?? undefined,
      amount,
      // Pieces still in stock from an earlier attempt (kept when the order was cancelled meanwhile) need no booking.
      restock: restockedProduct && (await bookedPieces(tx, refundId)) < (quantity ?? 0),
    });
    const retried = { status: "PENDING", idempotencyKey: attemptKey(refundId, idempotencyKey), sentAt: null, failureMessage: null, settledAt: null } as const;
    await tx.update(refund).set(retried).where(eq(refund.id, refundId));
    await logRefundChange(tx, refundId, {
      userId: actor.userId,
      previousState: { status: "FAILED", idempotencyKey, failureMessage },
      newState: retried,
      description: `Refund ${refundId} of order ${state.orderNumber} (${formatEuro(amount)}) tried again by staff`,
    });
    await queueSafetyNet(tx, refundId, retried.idempotencyKey, now);
    await recordSalesShare(tx, row!.orderId);
  });
  await sendNow(db, refundId, ports, actor);
  return refundView(db, refundId);
}
