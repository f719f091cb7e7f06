import { Decimal } from "decimal.js";
import { z } from "zod";
import { read, type EbayClient } from "./ebay-client";
import type { MarketplaceBuyerRequest, MarketplaceRequestDecision } from "./port";

/**
 * Buyers' returns and cancellations through eBay's Post-Order API v2 (PROVIDERS.md sections 5 and 12): the searches
 * that list them, and the seller's answers. The Post-Order API is one of eBay's older APIs: it takes the OAuth user
 * token as `Authorization: IAF <token>`, wants `X-EBAY-C-MARKETPLACE-ID`, pages with `offset` as the page number
 * (from 1), and wraps dates as `{ value }`. Decide, approve and reject are among the calls eBay wants signed for EU
 * sellers; they go through the same client as every other call, where the signature is added.
 *
 * A return's line is named by its `transactionId`, which is the Fulfillment API's `lineItemId` of that order line.
 * mark_refund_sent is gone (2026-01-20): the refund of a return is the Fulfillment API's issue_refund.
 */

const postOrder = "/post-order/v2";
/** The shop's home marketplace; the searches list the seller's requests whichever site the order was on. */
const marketplaceHeader = { "x-ebay-c-marketplace-id": "EBAY_NL" };
const pageSize = 50;

const amount = z.object({ value: z.coerce.string(), currency: z.string().optional() });
const dateValue = z.object({ value: z.string() });

/** eBay's ReturnSummaryType, as the return search lists it. */
export const ebayReturnSummary = z.object({
  returnId: z.coerce.string(),
  orderId: z.string(),
  state: z.string(),
  status: z.string().optional(),
  creationInfo: z.object({
    item: z.object({ itemId: z.coerce.string().optional(), transactionId: z.coerce.string(), returnQuantity: z.coerce.number().int().positive() }),
    reason: z.string().catch("OTHER"),
    comments: z.object({ content: z.string().optional() }).optional(),
    creationDate: dateValue,
  }),
  sellerTotalRefund: z.object({ estimatedRefundAmount: amount.optional() }).optional(),
  sellerResponseDue: z.object({ respondByDate: dateValue.optional() }).optional(),
});
export type EbayReturnSummary = z.infer<typeof ebayReturnSummary>;

/** eBay's CancelDetail, as the cancellation search lists it. */
export const ebayCancelDetail = z.object({
  cancelId: z.coerce.string(),
  legacyOrderId: z.string(),
  cancelState: z.string(),
  cancelStatus: z.string(),
  cancelReason: z.string().catch("OTHER"),
  requestRefundAmount: amount.optional(),
  cancelRequestDate: dateValue,
  sellerResponseDueDate: dateValue.optional(),
});
export type EbayCancelDetail = z.infer<typeof ebayCancelDetail>;

const pagination = z.object({ totalPages: z.coerce.number().int().optional() }).optional();
const returnSearchAnswer = z.object({ members: z.array(ebayReturnSummary).catch([]), paginationOutput: pagination });
const cancelSearchAnswer = z.object({ cancellations: z.array(ebayCancelDetail).catch([]), paginationOutput: pagination });

const awaitingSeller = new Set(["RETURN_REQUESTED", "RETURN_REQUESTED_TIMEOUT", "REPLACEMENT_REQUESTED", "INITIAL"]);

/** What a return waits for, from eBay's state (and status, which says a refusal where the state does not). */
export function returnStage(summary: Pick<EbayReturnSummary, "state" | "status">): MarketplaceBuyerRequest["stage"] {
  if (summary.state === "CLOSED") return "CLOSED";
  if (/DECLINE|REJECT/.test(summary.state) || /DECLINE|REJECT/.test(summary.status ?? "")) return "DECLINED";
  return awaitingSeller.has(summary.state) ? "AWAITING_SELLER" : "ACCEPTED";
}

/** What a cancellation waits for, from eBay's cancelStatus (CANCEL_REQUESTED, CANCEL_PENDING, CANCEL_REJECTED, CANCEL_CLOSED_...). */
export function cancellationStage(detail: Pick<EbayCancelDetail, "cancelState" | "cancelStatus">): MarketplaceBuyerRequest["stage"] {
  if (detail.cancelStatus === "CANCEL_REJECTED") return "DECLINED";
  if (detail.cancelStatus.startsWith("CANCEL_CLOSED") || detail.cancelState === "CLOSED") return "CLOSED";
  return detail.cancelStatus === "CANCEL_PENDING" ? "ACCEPTED" : "AWAITING_SELLER";
}

const dateOf = (value: { value: string } | undefined) => (value ? new Date(value.value) : null);
const decimalOf = (value: { value: string } | undefined) => (value ? new Decimal(value.value) : null);

export function buyerRequestOfReturn(summary: EbayReturnSummary): MarketplaceBuyerRequest {
  const { creationInfo } = summary;
  return {
    kind: "RETURN",
    requestId: summary.returnId,
    orderId: summary.orderId,
    marketplaceState: summary.state,
    stage: returnStage(summary),
    reason: creationInfo.reason,
    buyerComment: creationInfo.comments?.content?.trim() || null,
    lines: [{ lineItemId: creationInfo.item.transactionId, quantity: creationInfo.item.returnQuantity }],
    requestedRefund: decimalOf(summary.sellerTotalRefund?.estimatedRefundAmount),
    requestedAt: new Date(creationInfo.creationDate.value),
    respondBy: dateOf(summary.sellerResponseDue?.respondByDate),
  };
}

export function buyerRequestOfCancellation(detail: EbayCancelDetail): MarketplaceBuyerRequest {
  return {
    kind: "CANCELLATION",
    requestId: detail.cancelId,
    orderId: detail.legacyOrderId,
    marketplaceState: detail.cancelStatus,
    stage: cancellationStage(detail),
    reason: detail.cancelReason,
    buyerComment: null,
    lines: [],
    requestedRefund: decimalOf(detail.requestRefundAmount),
    requestedAt: new Date(detail.cancelRequestDate.value),
    respondBy: dateOf(detail.sellerResponseDueDate),
  };
}

/** The search's date window, as eBay's ISO dates with milliseconds. */
export function searchWindow(query: { createdFrom: Date; createdTo: Date }) {
  return { creation_date_range_from: query.createdFrom.toISOString(), creation_date_range_to: query.createdTo.toISOString() };
}

/** The seller's answer in eBay's words: the call and its body. */
export function decisionRequest(decision: MarketplaceRequestDecision): { path: string; body: unknown } {
  const id = encodeURIComponent(decision.requestId);
  const comments = decision.comment ? { comments: { content: decision.comment.slice(0, 1000) } } : {};
  if (decision.kind === "RETURN") return { path: `${postOrder}/return/${id}/decide`, body: { decision: decision.accept ? "APPROVE" : "DECLINE", ...comments } };
  // A rejection says why: the seller has shipped it or is about to (eBay's only grounds to refuse).
  return decision.accept ? { path: `${postOrder}/cancellation/${id}/approve`, body: {} } : { path: `${postOrder}/cancellation/${id}/reject`, body: { ...comments } };
}

/** The Post-Order calls of the live adapter, on its eBay client. */
export function postOrderCalls(client: EbayClient) {
  const get = (name: string, path: string) => client.call(name, { method: "GET", path, headers: marketplaceHeader, tokenScheme: "IAF" });

  async function allPages<T>(name: string, path: string, query: Record<string, string>, readPage: (body: unknown) => { entries: T[]; totalPages: number | undefined }): Promise<T[]> {
    const entries: T[] = [];
    for (let page = 1; ; page += 1) {
      const body = await get(name, `${postOrder}/${path}?${new URLSearchParams({ ...query, limit: String(pageSize), offset: String(page) })}`);
      const got = readPage(body);
      entries.push(...got.entries);
      if (got.entries.length < pageSize || (got.totalPages !== undefined && page >= got.totalPages)) return entries;
    }
  }

  return {
    async getBuyerRequests(query: { createdFrom: Date; createdTo: Date }): Promise<MarketplaceBuyerRequest[]> {
      const window = searchWindow(query);
      const returns = await allPages("searchReturns", "return/search", { ...window, role: "SELLER" }, (body) => {
        const page = read("searchReturns", returnSearchAnswer, body);
        return { entries: page.members, totalPages: page.paginationOutput?.totalPages };
      });
      const cancellations = await allPages("searchCancellations", "cancellation/search", { ...window, role: "SELLER" }, (body) => {
        const page = read("searchCancellations", cancelSearchAnswer, body);
        return { entries: page.cancellations, totalPages: page.paginationOutput?.totalPages };
      });
      return [...returns.map(buyerRequestOfReturn), ...cancellations.map(buyerRequestOfCancellation)];
    },

    async decideBuyerRequest(decision: MarketplaceRequestDecision): Promise<void> {
      const { path, body } = decisionRequest(decision);
      const name = decision.kind === "RETURN" ? "decideReturn" : decision.accept ? "approveCancellation" : "rejectCancellation";
      await client.call(name, { method: "POST", path, body, headers: marketplaceHeader, tokenScheme: "IAF" });
    },
  };
}
