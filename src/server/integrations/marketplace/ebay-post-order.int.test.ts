import { generateKeyPairSync } from "node:crypto";
import { Decimal } from "decimal.js";
import { describe, expect, it } from "vitest";
import { ebayCredentials } from "../../../../tests/helpers/ebay-stand-in";
import { startProviderServer, type ProviderAnswer, type ReceivedRequest } from "../../../../tests/helpers/provider-server";
import { standInForFile } from "../../../../tests/helpers/stand-in";
import { createEbayMarketplace } from "./ebay";
import type { EbayToken } from "./ebay-client";
import type { StoredSigningKey } from "./signing-key-store";
import { MarketplaceError } from "./port";

/**
 * The live adapter's returns and cancellations against a stand-in of eBay's Post-Order API v2 as its pages describe
 * it: the OAuth user token as `Authorization: IAF <token>` (a Bearer token is refused), `X-EBAY-C-MARKETPLACE-ID`
 * required, searches paged by page number (`offset` from 1) with `paginationOutput`, dates as `{ value }`, and eBay's
 * error format when a request no longer waits for the seller.
 */

const userToken = "v^1.1#i^1#f^0#p^3#r^0#I^3#t^post-order-user";
const returnSummary = (n: number) => ({
  returnId: String(5_000_000_000 + n),
  orderId: `12-34567-${String(10_000 + n)}`,
  buyerLoginName: "jan.devries",
  state: n === 0 ? "RETURN_REQUESTED" : "ITEM_SHIPPED",
  status: n === 0 ? "WAITING_FOR_RETURN_LABEL" : "READY_FOR_SHIPPING",
  currentType: "MONEY_BACK",
  creationInfo: {
    item: { itemId: "110554000001", transactionId: String(9_000_000_000_000 + n), returnQuantity: 1 },
    type: "MONEY_BACK",
    reason: "NOT_AS_DESCRIBED",
    comments: { content: "  The bezel is scratched  " },
    creationDate: { value: "2026-03-02T10:15:00.000Z" },
  },
  sellerTotalRefund: { estimatedRefundAmount: { value: 300, currency: "EUR" } },
  sellerResponseDue: { activityDue: "SELLER_APPROVE_REQUEST", respondByDate: { value: "2026-03-05T10:15:00.000Z" } },
});
const cancellation = {
  cancelId: "1234567890",
  marketplaceId: "EBAY_NL",
  legacyOrderId: "12-34567-89012",
  requestorType: "BUYER",
  cancelReason: "BUYER_CANCEL_ORDER",
  cancelState: "REQUESTED",
  cancelStatus: "CANCEL_REQUESTED",
  requestRefundAmount: { value: "149.50", currency: "EUR" },
  cancelRequestDate: { value: "2026-03-04T08:30:00.000Z" },
  sellerResponseDueDate: { value: "2026-03-07T08:30:00.000Z" },
};
const returns = Array.from({ length: 51 }, (_, n) => returnSummary(n));
const refuse = (message: string): ProviderAnswer => ({ status: 400, body: { error: [{ errorId: 1617, domain: "returnErrorDomain", severity: "ERROR", category: "REQUEST", message }], errors: [{ errorId: 1617, domain: "returnErrorDomain", category: "REQUEST", message }] } });

function postOrder(request: ReceivedRequest): ProviderAnswer {
  if (request.path === "/identity/v1/oauth2/token") return { status: 200, body: { access_token: userToken, expires_in: 7200 } };
  if (request.headers.authorization !== `IAF ${userToken}`) return { status: 401, body: { errors: [{ errorId: 1001, domain: "ACCESS", category: "REQUEST", message: "Invalid access token" }] } };
  if (!request.headers["x-ebay-c-marketplace-id"]) return { status: 400, body: { errors: [{ errorId: 1100, domain: "ACCESS", category: "REQUEST", message: "Missing X-EBAY-C-MARKETPLACE-ID" }] } };
  const page = Number(request.query.get("offset"));
  const limit = Number(request.query.get("limit"));
  if (request.method === "GET" && request.path === "/post-order/v2/return/search") {
    const members = returns.slice((page - 1) * limit, page * limit);
    return { status: 200, body: { members, paginationOutput: { limit, offset: page, totalEntries: returns.length, totalPages: Math.ceil(returns.length / limit) }, total: 0 } };
  }
  if (request.method === "GET" && request.path === "/post-order/v2/cancellation/search") {
    return { status: 200, body: { cancellations: page === 1 ? [cancellation] : [], paginationOutput: { limit, offset: page, totalEntries: 1, totalPages: 1 } } };
  }
  if (request.method === "POST" && request.path === "/post-order/v2/return/5000000000/decide") return { status: 200, body: {} };
  if (request.method === "POST" && request.path === "/post-order/v2/return/5000000001/decide") return refuse("The return is not in a state where the seller can decide.");
  if (request.method === "POST" && /^\/post-order\/v2\/cancellation\/1234567890\/(approve|reject)$/.test(request.path)) return { status: 200 };
  return { status: 404, body: { errors: [{ errorId: 2002, domain: "ACCESS", category: "REQUEST", message: `No such resource: ${request.method} ${request.path}` }] } };
}

const standIn = standInForFile(() => startProviderServer(postOrder));
const stored: { token: EbayToken | null } = { token: null };
// The decide and cancellation calls are signed; a key made here spares this stand-in eBay's Key Management API.
const signingKey: StoredSigningKey = {
  signingKeyId: "post-order-test",
  jwe: "jwe-of-the-test-key",
  privateKey: generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
  expiresAt: new Date("2029-01-01T00:00:00.000Z"),
};
const live = () =>
  createEbayMarketplace({
    baseUrl: standIn.url,
    ...ebayCredentials,
    policies: { fulfillmentPolicyId: "1", paymentPolicyId: "2", returnPolicyId: "3" },
    merchantLocationKey: "amsterdam",
    notificationVerificationToken: null,
    tokenStore: { read: async () => stored.token, write: async (token) => void (stored.token = token) },
    signingKeyStore: { read: async () => signingKey, write: async () => {} },
    now: () => new Date("2026-03-04T09:00:00.000Z"),
  });
const postOrderCalls = () => standIn.requests.filter((request) => request.path.startsWith("/post-order/"));

describe("live eBay adapter: returns and cancellations (Post-Order API)", () => {
  it("reads every page of returns and cancellations in the window into the shop's terms, with the token as IAF", async () => {
    const found = await live().getBuyerRequests({ createdFrom: new Date("2025-12-04T09:00:00.000Z"), createdTo: new Date("2026-03-04T09:00:00.000Z") });

    expect(found).toHaveLength(52);
    expect(found[0]).toEqual({
      kind: "RETURN",
      requestId: "5000000000",
      orderId: "12-34567-10000",
      marketplaceState: "RETURN_REQUESTED",
      stage: "AWAITING_SELLER",
      reason: "NOT_AS_DESCRIBED",
      buyerComment: "The bezel is scratched",
      lines: [{ lineItemId: "9000000000000", quantity: 1 }],
      requestedRefund: new Decimal("300"),
      requestedAt: new Date("2026-03-02T10:15:00.000Z"),
      respondBy: new Date("2026-03-05T10:15:00.000Z"),
    });
    expect(found[1]).toMatchObject({ stage: "ACCEPTED", marketplaceState: "ITEM_SHIPPED" });
    expect(found[51]).toEqual({
      kind: "CANCELLATION",
      requestId: "1234567890",
      orderId: "12-34567-89012",
      marketplaceState: "CANCEL_REQUESTED",
      stage: "AWAITING_SELLER",
      reason: "BUYER_CANCEL_ORDER",
      buyerComment: null,
      lines: [],
      requestedRefund: new Decimal("149.50"),
      requestedAt: new Date("2026-03-04T08:30:00.000Z"),
      respondBy: new Date("2026-03-07T08:30:00.000Z"),
    });
    const calls = postOrderCalls();
    expect(calls.map((call) => `${call.path}?offset=${call.query.get("offset")}`)).toEqual([
      "/post-order/v2/return/search?offset=1",
      "/post-order/v2/return/search?offset=2",
      "/post-order/v2/cancellation/search?offset=1",
    ]);
    expect(calls[0]!.query.get("creation_date_range_from")).toBe("2025-12-04T09:00:00.000Z");
    expect(calls[0]!.query.get("creation_date_range_to")).toBe("2026-03-04T09:00:00.000Z");
    expect(calls.every((call) => call.headers.authorization === `IAF ${userToken}` && call.headers["x-ebay-c-marketplace-id"] === "EBAY_NL")).toBe(true);
  });

  it("approves or declines a return with decide, approves or rejects a cancellation, and reports eBay's refusal", async () => {
    const ebay = live();
    await ebay.decideBuyerRequest({ kind: "RETURN", requestId: "5000000000", accept: true, comment: null });
    await ebay.decideBuyerRequest({ kind: "CANCELLATION", requestId: "1234567890", accept: true, comment: null });
    await ebay.decideBuyerRequest({ kind: "CANCELLATION", requestId: "1234567890", accept: false, comment: "Already shipped" });
    const refused = await ebay.decideBuyerRequest({ kind: "RETURN", requestId: "5000000001", accept: false, comment: "Sold as seen" }).catch((error: unknown) => error);

    expect(postOrderCalls().map((call) => [call.method, call.path, call.json])).toEqual([
      ["POST", "/post-order/v2/return/5000000000/decide", { decision: "APPROVE" }],
      ["POST", "/post-order/v2/cancellation/1234567890/approve", {}],
      ["POST", "/post-order/v2/cancellation/1234567890/reject", { comments: { content: "Already shipped" } }],
      ["POST", "/post-order/v2/return/5000000001/decide", { decision: "DECLINE", comments: { content: "Sold as seen" } }],
    ]);
    expect(refused).toBeInstanceOf(MarketplaceError);
    expect((refused as MarketplaceError).message).toBe("eBay refused decideReturn: The return is not in a state where the seller can decide. (error 1617)");
  });
});
