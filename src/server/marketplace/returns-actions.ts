import "server-only";
import { and, eq, sql } from "drizzle-orm";
import type { RefundReason } from "@/lib/enums";
import { errorMessage } from "@/lib/error-message";
import type { Db } from "@/server/db/client";
import { marketplaceRequest, order, orderItem, stockRecord } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import type { MarketplacePort } from "@/server/integrations/marketplace/port";
import { notifyStaff } from "@/server/notifications/service";
import { recordSalesShare } from "@/server/orders/sales-rollup";
import { assertStaffChange } from "@/server/orders/staff-status-changes";
import type { RefundPorts } from "@/server/refunds/refund-payout";
import { createRefundInput } from "@/server/refunds/schemas";
import { cancelOrder, createRefund, getRefundProposal } from "@/server/refunds/service";
import { bookStock } from "@/server/stock/service";
import { logMarketplaceEvent } from "./logbook";
import { reasonText } from "./returns-import";
import { decideRequestInput, oneRequestInput, type DecideRequestInput, type MarketplaceRequestView, type OneRequestInput } from "./returns-schemas";
import { requestActions, requestView } from "./returns-view";

/*
 * Staff's answers to buyers' requests from eBay, from the order page. eBay is told first (outside any transaction,
 * so a slow eBay holds no lock) and the shop records it only once eBay took it. Money and stock go the shop's one way:
 * a cancellation approved is the order cancelled from its page (`cancelOrder`: the state machine puts the pieces
 * back, and everything paid goes back through eBay's issue_refund as refunds of the order); a return's pieces go back
 * into stock when they arrive, once, as REFUND rows of their order line through `bookStock`; its refund is a refund of
 * those pieces (`createRefund`, without restock: the arrival did that), paid out through eBay like any other.
 */

export type RequestActor = { userId: string | null; now?: Date };
export type RequestPorts = { marketplace: MarketplacePort; refunds: RefundPorts };

/** A refund started this long ago and never recorded died with its process: staff may start it again. */
const REFUND_CLAIM_EXPIRES_MS = 10 * 60_000;

async function readRequest(db: Db, requestId: number, lock: boolean) {
  const query = db
    .select({ request: marketplaceRequest, orderNumber: order.orderNumber, orderStatus: order.status })
    .from(marketplaceRequest)
    .innerJoin(order, eq(order.id, marketplaceRequest.orderId))
    .where(eq(marketplaceRequest.id, requestId));
  const [row] = await (lock ? query.for("update", { of: marketplaceRequest }) : query);
  if (!row) throw new AppError("NOT_FOUND", `There is no eBay request ${requestId}.`);
  return row;
}

const nameOf = (row: { kind: "RETURN" | "CANCELLATION"; marketplaceRequestId: string }) =>
  row.kind === "RETURN" ? `eBay return ${row.marketplaceRequestId}` : `eBay cancellation request ${row.marketplaceRequestId}`;

/**
 * Accepts or declines a buyer's request on eBay and records it. A cancellation is accepted only while the order may
 * still be cancelled here (not shipped, no label), and then the order is cancelled with its money going back.
 */
export async function decideRequest(db: Db, raw: DecideRequestInput, actor: RequestActor, ports: RequestPorts): Promise<MarketplaceRequestView> {
  const input = decideRequestInput.parse(raw);
  const before = await readRequest(db, input.requestId, false);
  const { request } = before;
  if (!requestActions(request).decide) throw new AppError("CONFLICT", `${nameOf(request)} is ${request.state.toLowerCase()}: it no longer waits for an answer.`);
  const cancelling = request.kind === "CANCELLATION" && input.accept;
  if (cancelling) await assertStaffChange(db, { orderId: request.orderId, orderNumber: before.orderNumber, status: before.orderStatus }, "CANCELLED");

  await ports.marketplace.decideBuyerRequest({ kind: request.kind, requestId: request.marketplaceRequestId, accept: input.accept, comment: input.comment || null });

  const now = actor.now ?? new Date();
  const state = input.accept ? "ACCEPTED" : "DECLINED";
  await db.transaction(async (tx) => {
    const locked = (await readRequest(tx, input.requestId, true)).request;
    if (locked.state !== "REQUESTED") return;
    await tx.update(marketplaceRequest).set({ state, decidedAt: now, decidedBy: actor.userId }).where(eq(marketplaceRequest.id, locked.id));
    await logMarketplaceEvent(tx, {
      userId: actor.userId,
      entityType: "ORDER",
      entityId: locked.orderId,
      previousState: { marketplaceRequestId: locked.marketplaceRequestId, state: locked.state },
      newState: { marketplaceRequestId: locked.marketplaceRequestId, state, comment: input.comment || null },
      description: `${nameOf(locked)} on order ${before.orderNumber} ${input.accept ? "accepted" : "declined"} by staff and told to eBay`,
    });
  });

  if (cancelling) {
    try {
      const cancelled = await cancelOrder(db, { orderNumber: before.orderNumber }, actor, ports.refunds);
      await db.update(marketplaceRequest).set({ refundIds: cancelled.refunds.map((refund) => refund.id) }).where(eq(marketplaceRequest.id, request.id));
    } catch (error) {
      // eBay cancelled the order already: staff must finish it here, or the pieces stay out of stock and unpaid back.
      await notifyStaff(db, {
        type: "EBAY_ORDER",
        severity: "ERROR",
        message: `eBay cancelled order ${before.orderNumber} at the buyer's request, but it could not be cancelled here (${errorMessage(error)}): cancel it from its page so its pieces and money go back.`,
      });
      throw error;
    }
  }
  return requestView(db, input.requestId);
}

/**
 * A return's pieces arrived back: each line's pieces are booked into stock (REFUND rows of the order line, which give
 * the pieces back to the cost lots the line took them from), once. A second click, or one at the same moment, waits
 * for the row's lock and finds it received. A line never books more than the pieces of it not back in stock already.
 */
export async function receiveReturn(db: Db, raw: OneRequestInput, actor: RequestActor): Promise<MarketplaceRequestView> {
  const { requestId } = oneRequestInput.parse(raw);
  const now = actor.now ?? new Date();
  await db.transaction(async (tx) => {
    const { request, orderNumber } = await readRequest(tx, requestId, true);
    if (request.kind === "RETURN" && request.receivedAt !== null) return;
    if (!requestActions(request).receive) {
      throw new AppError("CONFLICT", request.kind === "RETURN" ? `${nameOf(request)} is ${request.state.toLowerCase()}: accept it before its pieces come back.` : "A cancellation has no pieces to receive.");
    }
    const booked: { orderItemId: number; pieces: number }[] = [];
    for (const line of request.lines) {
      const [item] = await tx.select({ productId: orderItem.productId, quantity: orderItem.quantity }).from(orderItem).where(eq(orderItem.id, line.orderItemId));
      if (!item) continue;
      const [back] = await tx
        .select({ pieces: sql<number>`coalesce(sum(${stockRecord.quantity}), 0)`.mapWith(Number) })
        .from(stockRecord)
        .where(and(eq(stockRecord.orderItemId, line.orderItemId), eq(stockRecord.type, "REFUND")));
      const pieces = Math.min(line.quantity, item.quantity - (back?.pieces ?? 0));
      if (pieces <= 0) continue;
      await bookStock(tx, {
        productId: item.productId,
        quantity: pieces,
        type: "REFUND",
        orderItemId: line.orderItemId,
        userId: actor.userId,
        description: `${nameOf(request)} of order ${orderNumber} received: ${pieces} piece(s) back in stock`,
      });
      booked.push({ orderItemId: line.orderItemId, pieces });
    }
    await tx.update(marketplaceRequest).set({ receivedAt: now, receivedBy: actor.userId }).where(eq(marketplaceRequest.id, requestId));
    await logMarketplaceEvent(tx, {
      userId: actor.userId,
      entityType: "ORDER",
      entityId: request.orderId,
      newState: { marketplaceRequestId: request.marketplaceRequestId, receivedAt: now, booked },
      description: `${nameOf(request)} of order ${orderNumber} received by staff; ${booked.reduce((sum, line) => sum + line.pieces, 0)} piece(s) back in stock`,
    });
    await recordSalesShare(tx, request.orderId);
  });
  return requestView(db, requestId);
}

/** eBay's return reasons as the shop's refund reasons. */
function refundReasonOf(reason: string): RefundReason {
  if (reason === "WRONG_ITEM") return "WRONG_ITEM";
  return ["ARRIVED_DAMAGED", "DEFECTIVE_ITEM", "NOT_AS_DESCRIBED"].includes(reason) ? "DAMAGED" : "OTHER";
}

/**
 * Refunds an accepted return through eBay: per line, the pieces returned at the price the buyer paid for them (the
 * refunds' own proposal), as refunds of the order with the refund row, payout, rollups and logbook of every refund.
 * The pieces are not restocked by the refund: their arrival does that. Claimed under the row's lock first, so two
 * clicks give one refund.
 */
export async function refundReturn(db: Db, raw: OneRequestInput, actor: RequestActor, ports: RequestPorts): Promise<MarketplaceRequestView> {
  const { requestId } = oneRequestInput.parse(raw);
  const now = actor.now ?? new Date();
  const claimed = await db.transaction(async (tx) => {
    const { request, orderNumber } = await readRequest(tx, requestId, true);
    if (!requestActions(request).refund) {
      throw new AppError("CONFLICT", request.refundIds.length > 0 ? `${nameOf(request)} was refunded already.` : `${nameOf(request)} is ${request.state.toLowerCase()}: only an accepted return is refunded here.`);
    }
    if (request.refundStartedAt && now.getTime() - request.refundStartedAt.getTime() < REFUND_CLAIM_EXPIRES_MS) {
      throw new AppError("CONFLICT", `${nameOf(request)} is being refunded already.`);
    }
    await tx.update(marketplaceRequest).set({ refundStartedAt: now }).where(eq(marketplaceRequest.id, requestId));
    return { request, orderNumber };
  });

  const { request, orderNumber } = claimed;
  const refundIds: number[] = [];
  try {
    const proposal = await getRefundProposal(db, orderNumber);
    for (const line of request.lines) {
      const left = proposal.lines.find((candidate) => candidate.orderItemId === line.orderItemId);
      const quantity = Math.min(line.quantity, left?.refundableQuantity ?? 0);
      if (!left || quantity === 0) continue;
      const refund = createRefundInput.parse({
        orderNumber,
        kind: "PRODUCT",
        orderItemId: line.orderItemId,
        quantity,
        restock: false,
        amount: left.proposedAmounts[quantity - 1]!,
        reason: refundReasonOf(request.reason),
        comment: `${nameOf(request)} (${reasonText(request.reason)})`,
      });
      refundIds.push((await createRefund(db, refund, actor, ports.refunds)).id);
    }
    if (refundIds.length === 0) throw new AppError("CONFLICT", `Nothing is left to refund of the pieces of ${nameOf(request)}.`);
  } finally {
    await db.transaction(async (tx) => {
      await tx.update(marketplaceRequest).set({ refundIds, refundStartedAt: refundIds.length > 0 ? now : null }).where(eq(marketplaceRequest.id, requestId));
      if (refundIds.length > 0) {
        await logMarketplaceEvent(tx, {
          userId: actor.userId,
          entityType: "ORDER",
          entityId: request.orderId,
          newState: { marketplaceRequestId: request.marketplaceRequestId, refundIds },
          description: `${nameOf(request)} of order ${orderNumber} refunded through eBay (refund ${refundIds.join(", ")})`,
        });
      }
    });
  }
  return requestView(db, requestId);
}
