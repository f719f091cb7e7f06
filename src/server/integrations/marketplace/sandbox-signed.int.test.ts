import { generateKeyPairSync } from "node:crypto";
import { Decimal } from "decimal.js";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { configParams, sandboxMarketplaceOrder } from "@/server/db/schema";
import { wristwatchAspects, sampleOffer } from "../../../../tests/helpers/marketplace-offer";
import { databaseForFile } from "../../../../tests/helpers/test-database";
import { ebaySignatureHeaders } from "./ebay-signature";
import { MarketplaceError, type MarketplacePort } from "./port";
import { createSandboxMarketplace } from "./sandbox";
import { asOrderRecord } from "./sandbox-records";
import { issueRefundRequest, sandboxGetTransactions, sandboxIssueRefund, transactionsRequest } from "./sandbox-signed";
import { buySandboxListing } from "./sandbox-store";
import { EBAY_SIGNING_KEY_PARAM, marketplaceSigningKeyStore, signingKeyState } from "./signing-key-store";

/**
 * Issue 30, acceptance 1 (sandbox side): the sandbox marketplace refuses an unsigned or wrongly signed issue_refund or
 * Finances call as eBay does, before anything happens, and takes the port's own calls, which are signed with the key
 * its Key Management stand-in issued and the shop keeps sealed; the fees it reports for an order are eBay's shape.
 */

const t = databaseForFile();
let market: MarketplacePort;
let nextSku = 9001;

beforeAll(() => {
  market = createSandboxMarketplace({ db: t.db, shopUrl: "http://127.0.0.1:9" });
});

/** A sandbox order of one piece at this price, bought on the buyer pages. */
async function sandboxOrder(price: string): Promise<string> {
  const sku = `BC-${nextSku++}`;
  await market.putItems([{ sku, marketplaceId: "EBAY_NL", condition: "USED_EXCELLENT", conditionDescription: null, title: `Seiko 6139 ${sku}`, description: "<p>Chronograph</p>", aspects: wristwatchAspects, imageUrls: [], quantity: 1 }]);
  const { offerId } = await market.createOffer(sampleOffer(sku, { quantity: 1, price: new Decimal(price) }));
  const { listingId } = await market.publishOffer(offerId);
  const buyer = { fullName: "Anna Jansen", addressLine1: "Oudegracht 1", postalCode: "3511 AA", city: "Utrecht", countryCode: "NL", email: "anna@example.com" };
  const { orderId } = await buySandboxListing(t.db, { listingId, quantity: 1, buyer }, { shopUrl: "http://127.0.0.1:9" });
  return orderId;
}

const refundsOf = async (orderId: string) => {
  const [row] = await t.db.select({ record: sandboxMarketplaceOrder.record }).from(sandboxMarketplaceOrder).where(eq(sandboxMarketplaceOrder.orderId, orderId));
  return asOrderRecord(row!.record).paymentSummary.refunds;
};
const refusal = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => error as MarketplaceError);

describe("sandbox marketplace: eBay's digital signature", () => {
  it("refuses an unsigned refund and a wrongly signed one, and takes the port's signed refund", async () => {
    const orderId = await sandboxOrder("300.00");
    const request = issueRefundRequest({ orderId, amount: new Decimal("50.00"), reason: "BUYER_RETURN", comment: null, lines: null });

    // Unsigned: eBay's 215001, nothing refunded.
    const unsigned = await refusal(sandboxIssueRefund(t.db, request, new Headers({ "content-type": "application/json" })));
    expect(unsigned).toBeInstanceOf(MarketplaceError);
    expect(unsigned).toMatchObject({ status: 400, details: [{ errorId: 215001, domain: "ACCESS" }] });
    expect(await refundsOf(orderId)).toEqual([]);

    // The port signs: the key is made once through the sandbox's key service and kept sealed.
    expect(await signingKeyState(t.db)).toEqual({ state: "none" });
    const refund = await market.refundOrder({ orderId, amount: new Decimal("50.00"), reason: "BUYER_RETURN", comment: null, lines: null });
    expect(refund).toEqual({ refundId: expect.any(String), status: "REFUNDED" });
    expect(await refundsOf(orderId)).toMatchObject([{ refundId: refund.refundId, amount: { value: "50.00", currency: "EUR" } }]);
    const state = await signingKeyState(t.db);
    expect(state).toMatchObject({ state: "present", expired: false });
    const key = (await marketplaceSigningKeyStore(t.db).read())!;
    const [row] = await t.db.select({ value: configParams.value }).from(configParams).where(eq(configParams.param, EBAY_SIGNING_KEY_PARAM));
    expect(row!.value).not.toContain(key.privateKey.slice(16, 48));

    // Signed, then changed: the digest no longer matches the body.
    const signed = new Headers(ebaySignatureHeaders(request, key, new Date()));
    const tampered = { ...request, body: request.body!.replace("50.00", "250.00") };
    expect(await refusal(sandboxIssueRefund(t.db, tampered, signed))).toMatchObject({ status: 403, details: [{ errorId: 215122 }] });
    // Signed for another order: @path is covered.
    const elsewhere = { ...request, url: request.url.replace(orderId, "99-99999-99999") };
    expect(await refusal(sandboxIssueRefund(t.db, elsewhere, signed))).toMatchObject({ status: 403, details: [{ errorId: 215122 }] });
    // Signed with a key pair the sandbox did not issue, under the shop's JWE.
    const other = generateKeyPairSync("ed25519").privateKey.export({ format: "pem", type: "pkcs8" }).toString();
    const forged = new Headers(ebaySignatureHeaders(request, { jwe: key.jwe, privateKey: other }, new Date()));
    expect(await refusal(sandboxIssueRefund(t.db, request, forged))).toMatchObject({ status: 403, details: [{ errorId: 215122 }] });
    // A JWE the key service never issued.
    const unknown = new Headers(ebaySignatureHeaders(request, { jwe: "eyJhbGciOiJBMjU2R0NNS1cifQ.x.y.z.w", privateKey: key.privateKey }, new Date()));
    expect(await refusal(sandboxIssueRefund(t.db, request, unknown))).toMatchObject({ status: 403, details: [{ errorId: 215122 }] });
    expect(await refundsOf(orderId)).toHaveLength(1);

    // The same request properly signed is taken.
    await sandboxIssueRefund(t.db, request, signed);
    expect(await refundsOf(orderId)).toHaveLength(2);
  });

  it("refuses an unsigned Finances call, and reports the fees of an order in eBay's shape to the signed port", async () => {
    const orderId = await sandboxOrder("200.00");
    const unsigned = await refusal(sandboxGetTransactions(t.db, transactionsRequest(orderId), new Headers()));
    expect(unsigned).toMatchObject({ status: 400, details: [{ errorId: 215001 }] });

    const fees = await market.getOrderFees(orderId);
    // 11 % of what the buyer paid (delivery is free on the sandbox's listings), and 0.35 per order.
    expect(fees!.total.toFixed(2)).toBe("22.35");
    expect(Object.fromEntries(Object.entries(fees!.byType).map(([type, amount]) => [type, amount.toFixed(2)]))).toEqual({ FINAL_VALUE_FEE: "22.00", FINAL_VALUE_FEE_FIXED_PER_ORDER: "0.35" });
    expect(await market.getOrderFees("00-00000-00000")).toBeNull();
  });
});
