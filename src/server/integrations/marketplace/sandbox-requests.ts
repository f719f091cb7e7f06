import "server-only";
import { randomInt } from "node:crypto";
import { and, asc, eq, gte, lte } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/server/db/client";
import { sandboxMarketplaceOrder, sandboxMarketplaceRequest } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { ebayAmount } from "./ebay-records";
import { buyerRequestOfCancellation, buyerRequestOfReturn, cancellationStage, returnStage, type EbayCancelDetail, type EbayReturnSummary } from "./ebay-post-order";
import type { MarketplaceBuyerRequest, MarketplaceRequestDecision } from "./port";
import { asOrderRecord, marketplaceError, type Refusal } from "./sandbox-records";
import { Decimal } from "decimal.js";

/**
 * Buyers' returns and cancellations on the sandbox marketplace, kept in eBay's Post-Order shapes (ReturnSummary,
 * CancelDetail) with eBay's rules: a buyer returns pieces that were shipped, at most as many as the line holds and
 * one open return per line; a buyer asks to cancel an order that has not shipped, once; the seller answers only a
 * request that waits for an answer, and cannot approve the cancellation of an order that has shipped meanwhile.
 * The buyer's side is the sandbox's order page (/sandbox/ebay/order/[orderId]) and tests; the seller's side is the
 * port (sandbox.ts).
 */

/** eBay's returnId and cancelId are numbers of ten digits. */
const newRequestId = (first: number) => `${first}${Array.from({ length: 9 }, () => randomInt(10)).join("")}`;
/** eBay gives the seller three business days to answer; the sandbox counts three days. */
const answerWithinMs = 3 * 24 * 60 * 60_000;

export const sandboxReturnInput = z.object({
  orderId: z.string().min(1).max(40),
  lineItemId: z.string().min(1).max(40),
  quantity: z.coerce.number().int().min(1, "Return at least one piece"),
  reason: z.enum(["NO_LONGER_NEED_ITEM", "NOT_AS_DESCRIBED", "ARRIVED_DAMAGED", "DEFECTIVE_ITEM", "WRONG_ITEM", "ORDERED_BY_MISTAKE"]),
  comment: z.string().trim().max(1000).optional(),
});
export type SandboxReturn = z.input<typeof sandboxReturnInput>;

export const sandboxCancellationInput = z.object({
  orderId: z.string().min(1).max(40),
  reason: z.enum(["BUYER_CANCEL_ORDER", "ORDER_MISTAKE", "WONT_ARRIVE_IN_TIME", "FOUND_CHEAPER_PRICE"]),
});
export type SandboxCancellation = z.input<typeof sandboxCancellationInput>;

const asReturn = (record: Record<string, unknown>) => record as unknown as EbayReturnSummary;
const asCancellation = (record: Record<string, unknown>) => record as unknown as EbayCancelDetail;
const storable = (record: EbayReturnSummary | EbayCancelDetail) => record as unknown as Record<string, unknown>;

async function lockedOrder(tx: Db, orderId: string) {
  const [row] = await tx.select().from(sandboxMarketplaceOrder).where(eq(sandboxMarketplaceOrder.orderId, orderId)).for("update");
  if (!row) throw new AppError("NOT_FOUND", `There is no order ${orderId}`);
  return asOrderRecord(row.record);
}

async function requestsOf(tx: Db, orderId: string) {
  return tx.select().from(sandboxMarketplaceRequest).where(eq(sandboxMarketplaceRequest.orderId, orderId));
}

/** A buyer's return of pieces of one line; refused as eBay refuses it. Answers the new returnId. */
export async function openSandboxReturn(db: Db, raw: SandboxReturn, options: { now?: Date } = {}): Promise<{ returnId: string }> {
  const input = sandboxReturnInput.parse(raw);
  const now = options.now ?? new Date();
  return db.transaction(async (tx) => {
    const order = await lockedOrder(tx, input.orderId);
    const line = order.lineItems.find((candidate) => candidate.lineItemId === input.lineItemId);
    if (!line) throw new AppError("NOT_FOUND", `Order ${input.orderId} has no line ${input.lineItemId}`);
    if (line.lineItemFulfillmentStatus === "NOT_STARTED") throw new AppError("CONFLICT", "This item has not been shipped yet: ask the seller to cancel the order instead");
    const earlier = (await requestsOf(tx, input.orderId)).filter((row) => row.kind === "RETURN").map((row) => asReturn(row.record));
    const ofLine = earlier.filter((summary) => summary.creationInfo.item.transactionId === input.lineItemId);
    if (ofLine.some((summary) => returnStage(summary) === "AWAITING_SELLER" || returnStage(summary) === "ACCEPTED")) {
      throw new AppError("CONFLICT", "A return of this item is already open");
    }
    const returned = ofLine.filter((summary) => returnStage(summary) !== "DECLINED").reduce((sum, summary) => sum + summary.creationInfo.item.returnQuantity, 0);
    if (input.quantity > line.quantity - returned) throw new AppError("CONFLICT", `You can return at most ${line.quantity - returned} of this item`);
    const returnId = newRequestId(5);
    const refund = new Decimal(line.lineItemCost.value).times(input.quantity).dividedBy(line.quantity).toDecimalPlaces(2);
    const record: EbayReturnSummary = {
      returnId,
      orderId: input.orderId,
      state: "RETURN_REQUESTED",
      status: "WAITING_FOR_RETURN_LABEL",
      creationInfo: {
        item: { itemId: line.legacyItemId, transactionId: line.lineItemId, returnQuantity: input.quantity },
        reason: input.reason,
        ...(input.comment ? { comments: { content: input.comment } } : {}),
        creationDate: { value: now.toISOString() },
      },
      sellerTotalRefund: { estimatedRefundAmount: ebayAmount(refund) },
      sellerResponseDue: { respondByDate: { value: new Date(now.getTime() + answerWithinMs).toISOString() } },
    };
    await tx.insert(sandboxMarketplaceRequest).values({ requestId: returnId, kind: "RETURN", orderId: input.orderId, record: storable(record), createdAt: now });
    return { returnId };
  });
}

/** A buyer's request to cancel an order that has not shipped; refused as eBay refuses it. Answers the new cancelId. */
export async function requestSandboxCancellation(db: Db, raw: SandboxCancellation, options: { now?: Date } = {}): Promise<{ cancelId: string }> {
  const input = sandboxCancellationInput.parse(raw);
  const now = options.now ?? new Date();
  return db.transaction(async (tx) => {
    const order = await lockedOrder(tx, input.orderId);
    if (order.cancelStatus.cancelState === "CANCELED") throw new AppError("CONFLICT", "This order is already cancelled");
    if (order.orderFulfillmentStatus !== "NOT_STARTED") throw new AppError("CONFLICT", "This order has been shipped: it can no longer be cancelled; return it instead");
    const earlier = (await requestsOf(tx, input.orderId)).filter((row) => row.kind === "CANCELLATION").map((row) => asCancellation(row.record));
    if (earlier.some((detail) => cancellationStage(detail) !== "DECLINED")) throw new AppError("CONFLICT", "You have already asked to cancel this order");
    const cancelId = newRequestId(1);
    const record: EbayCancelDetail = {
      cancelId,
      legacyOrderId: input.orderId,
      cancelState: "REQUESTED",
      cancelStatus: "CANCEL_REQUESTED",
      cancelReason: input.reason,
      requestRefundAmount: ebayAmount(new Decimal(order.pricingSummary.total.value)),
      cancelRequestDate: { value: now.toISOString() },
      sellerResponseDueDate: { value: new Date(now.getTime() + answerWithinMs).toISOString() },
    };
    await tx.insert(sandboxMarketplaceRequest).values({ requestId: cancelId, kind: "CANCELLATION", orderId: input.orderId, record: storable(record), createdAt: now });
    await tx
      .update(sandboxMarketplaceOrder)
      .set({ record: { ...order, cancelStatus: { cancelState: "CANCEL_REQUESTED", cancelRequests: [{ cancelRequestId: cancelId }] } } as unknown as Record<string, unknown>, lastModifiedAt: now })
      .where(eq(sandboxMarketplaceOrder.orderId, input.orderId));
    return { cancelId };
  });
}

/** The requests created in the window, as eBay's searches list them. */
export async function searchSandboxRequests(db: Db, query: { createdFrom: Date; createdTo: Date }): Promise<MarketplaceBuyerRequest[]> {
  const rows = await db
    .select()
    .from(sandboxMarketplaceRequest)
    .where(and(gte(sandboxMarketplaceRequest.createdAt, query.createdFrom), lte(sandboxMarketplaceRequest.createdAt, query.createdTo)))
    .orderBy(asc(sandboxMarketplaceRequest.createdAt), asc(sandboxMarketplaceRequest.requestId));
  return rows.map((row) => (row.kind === "RETURN" ? buyerRequestOfReturn(asReturn(row.record)) : buyerRequestOfCancellation(asCancellation(row.record))));
}

const refusals = {
  notFound: (kind: string, id: string): Refusal => ({ status: 404, errorId: 1002, message: `The ${kind} ${id} was not found.` }),
  notAwaiting: (kind: string, id: string, state: string): Refusal => ({ status: 400, errorId: 1617, message: `The ${kind} ${id} is ${state}: it does not wait for the seller's decision.` }),
  shipped: (id: string): Refusal => ({ status: 400, errorId: 1601, message: `The order of cancellation ${id} has been shipped; it cannot be cancelled.` }),
};

/** The seller's answer, refused as eBay refuses it when the request no longer waits for one. */
export async function decideSandboxRequest(db: Db, decision: MarketplaceRequestDecision, now: Date = new Date()): Promise<void> {
  const call = decision.kind === "RETURN" ? "decideReturn" : decision.accept ? "approveCancellation" : "rejectCancellation";
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(sandboxMarketplaceRequest).where(eq(sandboxMarketplaceRequest.requestId, decision.requestId)).for("update");
    if (!row || row.kind !== decision.kind) throw marketplaceError(call, refusals.notFound(decision.kind.toLowerCase(), decision.requestId));
    if (row.kind === "RETURN") {
      const summary = asReturn(row.record);
      if (returnStage(summary) !== "AWAITING_SELLER") throw marketplaceError(call, refusals.notAwaiting("return", decision.requestId, summary.state));
      const decided: EbayReturnSummary = decision.accept
        ? { ...summary, state: "ITEM_READY_TO_SHIP", status: "READY_FOR_SHIPPING" }
        : { ...summary, state: "RETURN_REJECTED", status: "RETURN_REJECTED" };
      await tx.update(sandboxMarketplaceRequest).set({ record: storable(decided) }).where(eq(sandboxMarketplaceRequest.requestId, decision.requestId));
      return;
    }
    const detail = asCancellation(row.record);
    if (cancellationStage(detail) !== "AWAITING_SELLER") throw marketplaceError(call, refusals.notAwaiting("cancellation", decision.requestId, detail.cancelStatus));
    const order = await lockedOrder(tx, row.orderId);
    if (decision.accept && order.orderFulfillmentStatus !== "NOT_STARTED") throw marketplaceError(call, refusals.shipped(decision.requestId));
    // Approved, eBay cancels the order; the refund is the seller's issue_refund, after which eBay closes it.
    const decided: EbayCancelDetail = decision.accept ? { ...detail, cancelStatus: "CANCEL_PENDING" } : { ...detail, cancelState: "CLOSED", cancelStatus: "CANCEL_REJECTED" };
    await tx.update(sandboxMarketplaceRequest).set({ record: storable(decided) }).where(eq(sandboxMarketplaceRequest.requestId, decision.requestId));
    const cancelState = decision.accept ? "CANCELED" : "NONE_REQUESTED";
    await tx
      .update(sandboxMarketplaceOrder)
      .set({ record: { ...order, cancelStatus: { ...order.cancelStatus, cancelState } } as unknown as Record<string, unknown>, lastModifiedAt: now })
      .where(eq(sandboxMarketplaceOrder.orderId, row.orderId));
  });
}

/** The requests of one order, for the sandbox's order page. */
export async function sandboxRequestsOfOrder(db: Db, orderId: string): Promise<MarketplaceBuyerRequest[]> {
  const rows = await db.select().from(sandboxMarketplaceRequest).where(eq(sandboxMarketplaceRequest.orderId, orderId)).orderBy(asc(sandboxMarketplaceRequest.createdAt));
  return rows.map((row) => (row.kind === "RETURN" ? buyerRequestOfReturn(asReturn(row.record)) : buyerRequestOfCancellation(asCancellation(row.record))));
}

/**
 * What eBay does to the requests of an order once the seller refunded through issue_refund: an accepted return of a
 * line that got a refund is closed, and an approved cancellation of an order now refunded in full is closed with its
 * refund.
 */
export async function closeRefundedRequests(db: Db, orderId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const order = await lockedOrder(tx, orderId);
    const refundedLines = new Set(order.lineItems.filter((line) => (line.refunds ?? []).length > 0).map((line) => line.lineItemId));
    const fullyRefunded = order.orderPaymentStatus === "FULLY_REFUNDED";
    for (const row of await requestsOf(tx, orderId)) {
      if (row.kind === "RETURN") {
        const summary = asReturn(row.record);
        if (returnStage(summary) !== "ACCEPTED" || !(fullyRefunded || refundedLines.has(summary.creationInfo.item.transactionId))) continue;
        await tx.update(sandboxMarketplaceRequest).set({ record: storable({ ...summary, state: "CLOSED", status: "REFUND_ISSUED" }) }).where(eq(sandboxMarketplaceRequest.requestId, row.requestId));
      } else {
        const detail = asCancellation(row.record);
        if (cancellationStage(detail) !== "ACCEPTED" || !fullyRefunded) continue;
        await tx
          .update(sandboxMarketplaceRequest)
          .set({ record: storable({ ...detail, cancelState: "CLOSED", cancelStatus: "CANCEL_CLOSED_WITH_REFUND" }) })
          .where(eq(sandboxMarketplaceRequest.requestId, row.requestId));
      }
    }
  });
}
