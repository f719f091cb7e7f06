import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { errorMessage } from "@/lib/error-message";
import { formatEuro } from "@/lib/money";
import type { Db } from "@/server/db/client";
import { marketplaceRequest, order, orderDetail, orderItem, product, type MarketplaceRequestLine } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { getMarketplace } from "@/server/integrations/marketplace/marketplace";
import type { MarketplaceBuyerRequest, MarketplacePort } from "@/server/integrations/marketplace/port";
import { defineScheduledJob, leftToNextTick } from "@/server/jobs/define";
import { notifyStaff } from "@/server/notifications/service";
import { logMarketplaceEvent, logMarketplaceWarning } from "./logbook";
import { pollMarketplaceOrders } from "./order-poll";
import type { MarketplaceRequestState } from "./returns-schemas";

/*
 * Buyers' returns and cancellations requested on eBay, brought in by a poll every five minutes (eBay sends no
 * notification for them that the shop subscribes to): every request created in the last 90 days is read as it stands
 * and recorded once per eBay id against the imported order, with its lines, a staff notification and a logbook entry
 * on the order; later polls record what eBay says of it since (the buyer shipped it back, eBay closed it). Two
 * instances polling at once take turns per request under an advisory lock, so each is recorded and announced once.
 */

/** How far back each poll reads: eBay's search covers at most 90 days forward from its start. */
const SEARCH_WINDOW_MS = 90 * 24 * 60 * 60_000;

/** What one request of the marketplace came to. */
export type RequestImport = "recorded" | "updated" | "unchanged" | "order not imported";

/** The shop's state of a request from where eBay says it stands; staff's own decision is not undone by a stale read. */
function stateOf(stage: MarketplaceBuyerRequest["stage"], current: MarketplaceRequestState | null): MarketplaceRequestState {
  if (stage === "CLOSED") return "CLOSED";
  if (stage === "DECLINED") return "DECLINED";
  if (stage === "ACCEPTED") return current === "CLOSED" ? "CLOSED" : "ACCEPTED";
  return current ?? "REQUESTED";
}

const reasons: Record<string, string> = {
  NO_LONGER_NEED_ITEM: "no longer needed",
  ORDERED_BY_MISTAKE: "ordered by mistake",
  NOT_AS_DESCRIBED: "not as described",
  ARRIVED_DAMAGED: "arrived damaged",
  DEFECTIVE_ITEM: "does not work",
  WRONG_ITEM: "wrong item sent",
  BUYER_CANCEL_ORDER: "the buyer changed their mind",
  ORDER_MISTAKE: "ordered by mistake",
  WONT_ARRIVE_IN_TIME: "will not arrive in time",
  FOUND_CHEAPER_PRICE: "found it cheaper",
};
/** eBay's reason code in staff's words. */
export const reasonText = (reason: string) => reasons[reason] ?? reason.toLowerCase().replaceAll("_", " ");

/**
 * The order lines the request is for. A return names its line by eBay's line item id; a cancellation is of every line.
 * A return whose line the shop cannot find (a line left out at import) is recorded without lines, for staff to see.
 */
async function linesOf(tx: Db, orderId: number, request: MarketplaceBuyerRequest) {
  const lines = await tx
    .select({ orderItemId: orderItem.id, lineItemId: orderItem.marketplaceLineItemId, quantity: orderItem.quantity, name: product.name })
    .from(orderItem)
    .innerJoin(product, eq(product.id, orderItem.productId))
    .where(eq(orderItem.orderId, orderId))
    .orderBy(orderItem.id);
  if (request.kind === "CANCELLATION") return lines.map((line) => ({ orderItemId: line.orderItemId, lineItemId: line.lineItemId ?? "", quantity: line.quantity, name: line.name }));
  return request.lines.flatMap((wanted) => {
    const line = lines.find((candidate) => candidate.lineItemId === wanted.lineItemId);
    return line ? [{ orderItemId: line.orderItemId, lineItemId: wanted.lineItemId, quantity: Math.min(wanted.quantity, line.quantity), name: line.name }] : [];
  });
}

/** Records one request of the marketplace, or what changed of it, exactly once. */
export async function importBuyerRequest(db: Db, request: MarketplaceBuyerRequest): Promise<RequestImport> {
  const [imported] = await db
    .select({ orderId: order.id, orderNumber: order.orderNumber })
    .from(orderDetail)
    .innerJoin(order, eq(order.id, orderDetail.orderId))
    .where(eq(orderDetail.marketplaceOrderId, request.orderId));
  // The order comes in with the order poll; the next poll of requests finds this one again.
  if (!imported) return "order not imported";

  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`marketplace-request/${request.kind}/${request.requestId}`}, 0))`);
    const [existing] = await tx
      .select()
      .from(marketplaceRequest)
      .where(and(eq(marketplaceRequest.kind, request.kind), eq(marketplaceRequest.marketplaceRequestId, request.requestId)));
    const what = request.kind === "RETURN" ? `eBay return ${request.requestId}` : `eBay cancellation request ${request.requestId}`;
    if (existing) {
      const state = stateOf(request.stage, existing.state);
      if (existing.marketplaceState === request.marketplaceState && existing.state === state) return "unchanged";
      const changed = { marketplaceState: request.marketplaceState, state, closedAt: state === "CLOSED" ? (existing.closedAt ?? new Date()) : existing.closedAt };
      await tx.update(marketplaceRequest).set(changed).where(eq(marketplaceRequest.id, existing.id));
      await logMarketplaceEvent(tx, {
        userId: null,
        entityType: "ORDER",
        entityId: imported.orderId,
        previousState: { marketplaceRequestId: request.requestId, state: existing.state, marketplaceState: existing.marketplaceState },
        newState: { marketplaceRequestId: request.requestId, state, marketplaceState: request.marketplaceState },
        description: `${what} on order ${imported.orderNumber} is now ${request.marketplaceState} on eBay`,
      });
      return "updated";
    }

    const lines = await linesOf(tx, imported.orderId, request);
    const stored: MarketplaceRequestLine[] = lines.map(({ orderItemId, lineItemId, quantity }) => ({ orderItemId, lineItemId, quantity }));
    const state = stateOf(request.stage, null);
    const [row] = await tx
      .insert(marketplaceRequest)
      .values({
        kind: request.kind,
        marketplaceRequestId: request.requestId,
        orderId: imported.orderId,
        marketplaceOrderId: request.orderId,
        state,
        marketplaceState: request.marketplaceState,
        reason: request.reason,
        buyerComment: request.buyerComment,
        lines: stored,
        requestedRefund: request.requestedRefund,
        requestedAt: request.requestedAt,
        respondBy: request.respondBy,
        closedAt: state === "CLOSED" ? new Date() : null,
      })
      .returning({ id: marketplaceRequest.id });
    const pieces = lines.map((line) => `${line.quantity} × ${line.name}`).join(", ");
    const refund = request.requestedRefund ? ` for ${formatEuro(request.requestedRefund)}` : "";
    await logMarketplaceEvent(tx, {
      userId: null,
      entityType: "ORDER",
      entityId: imported.orderId,
      newState: { marketplaceRequestId: request.requestId, requestId: row!.id, kind: request.kind, state, marketplaceState: request.marketplaceState, reason: request.reason, lines: stored, requestedRefund: request.requestedRefund },
      description: `${what} on order ${imported.orderNumber} recorded: ${pieces || "lines not found"} (${reasonText(request.reason)})${refund}`,
    });
    if (request.kind === "RETURN" && lines.length === 0) {
      await logMarketplaceWarning(tx, { entityType: "ORDER", entityId: imported.orderId, newState: { marketplaceRequestId: request.requestId, lines: request.lines }, description: `${what}: its line is not a line of order ${imported.orderNumber}` });
    }
    const ask = state === "REQUESTED" ? `: accept or decline it on the order's page${request.respondBy ? ` before ${request.respondBy.toISOString().slice(0, 10)}` : ""}` : ` (${request.marketplaceState} on eBay)`;
    await notifyStaff(tx, {
      type: "EBAY_ORDER",
      severity: "WARNING",
      message:
        request.kind === "RETURN"
          ? `The eBay buyer of order ${imported.orderNumber} wants to return ${pieces || "an item"} (${reasonText(request.reason)})${refund}${ask}.`
          : `The eBay buyer of order ${imported.orderNumber} asks to cancel it (${reasonText(request.reason)}): do not ship it${ask}.`,
    });
    return "recorded";
  });
}

/** Reads the marketplace's requests of the last 90 days and records each; a request that failed is named in the error. */
export async function pollBuyerRequests(db: Db, port: MarketplacePort, now: Date = new Date()): Promise<{ recorded: number; updated: number }> {
  const requests = await port.getBuyerRequests({ createdFrom: new Date(now.getTime() - SEARCH_WINDOW_MS), createdTo: now });
  const counts = { recorded: 0, updated: 0 };
  const failed: string[] = [];
  for (const request of requests) {
    try {
      const outcome = await importBuyerRequest(db, request);
      if (outcome === "recorded") counts.recorded += 1;
      if (outcome === "updated") counts.updated += 1;
    } catch (error) {
      failed.push(`${request.kind.toLowerCase()} ${request.requestId}: ${errorMessage(error)}`);
    }
  }
  if (failed.length > 0) throw new AppError("INTERNAL_SERVER_ERROR", `eBay requests could not be recorded (${failed.join("; ")}); the next poll tries again.`);
  return counts;
}

/** Staff's "Check for orders now": the orders first, so that a request on an order just sold finds it imported. */
export async function pollOrdersAndRequests(db: Db, port: MarketplacePort): Promise<{ imported: number; requests: { recorded: number; updated: number } }> {
  const orders = await pollMarketplaceOrders(db, port);
  return { ...orders, requests: await pollBuyerRequests(db, port) };
}

/** `marketplace-request-poll`: every five minutes; a failed poll is left to the next one, which reads the same window. */
export const requestPollJob = defineScheduledJob({
  name: "marketplace-request-poll",
  schedule: "*/5 * * * *",
  retry: leftToNextTick,
  expireInSeconds: 240,
  async run({ db, log }) {
    const { recorded, updated } = await pollBuyerRequests(db, getMarketplace());
    if (recorded + updated > 0) log.info({ event: "EBAY_API", recorded, updated }, `recorded ${recorded} and updated ${updated} eBay return or cancellation request(s)`);
  },
});
