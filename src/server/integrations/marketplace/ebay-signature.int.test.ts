import { Decimal } from "decimal.js";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { configParams } from "@/server/db/schema";
import { ebayCredentials, ebayOrderJson, startEbayStandIn } from "../../../../tests/helpers/ebay-stand-in";
import { standInForFile } from "../../../../tests/helpers/stand-in";
import { databaseForFile } from "../../../../tests/helpers/test-database";
import { createEbayMarketplace } from "./ebay";
import { ebaySignatureHeaders } from "./ebay-signature";
import { MarketplaceError } from "./port";
import { EBAY_SIGNING_KEY_PARAM, marketplaceSigningKeyStore, signingKeyState } from "./signing-key-store";
import { marketplaceTokenStore } from "./token-store";

/**
 * Issue 30, acceptance 1 (live side): eBay's digital signature as the live adapter makes it, against the stand-in that
 * checks it as eBay does (PROVIDERS.md section 12): the signing key made once with the Key Management API and kept
 * sealed, issue_refund and the Finances API's transactions signed over eBay's covered components, an unsigned or
 * wrongly signed refund refused with eBay's errors, and the order's fees read from its transactions.
 */

const t = databaseForFile();
const ebay = standInForFile(startEbayStandIn);
const clock = { now: new Date("2026-03-04T09:00:00.000Z") };
const policies = { fulfillmentPolicyId: "6196932000", paymentPolicyId: "6196934000", returnPolicyId: "6196936000" };

const newEbay = () =>
  createEbayMarketplace({
    baseUrl: ebay.url,
    ...ebayCredentials,
    policies,
    merchantLocationKey: "amsterdam-prinsengracht",
    notificationVerificationToken: null,
    tokenStore: marketplaceTokenStore(t.db),
    signingKeyStore: marketplaceSigningKeyStore(t.db),
    now: () => clock.now,
  });

const keyCreations = () => ebay.requests.filter((request) => request.path === "/developer/key_management/v1/signing_key");
const refundCalls = (orderId: string) => ebay.requests.filter((request) => request.path === `/sell/fulfillment/v1/order/${orderId}/issue_refund`);

beforeEach(async () => {
  ebay.orders.length = 0;
  ebay.transactions.length = 0;
  await t.db.delete(configParams).where(eq(configParams.param, EBAY_SIGNING_KEY_PARAM));
});

describe("eBay's digital signature", () => {
  it("makes a signing key once, keeps it sealed, and signs issue_refund with it as eBay documents", async () => {
    const json = ebayOrderJson("12-20000001-00001");
    ebay.orders.push(json);
    expect(await signingKeyState(t.db)).toEqual({ state: "none" });

    const refund = await newEbay().refundOrder({ orderId: json.orderId, amount: new Decimal("20"), reason: "OTHER", comment: null, lines: null });
    expect(refund.status).toBe("PENDING");

    // One key, asked for with the application token, Ed25519.
    const [creation] = keyCreations();
    expect(keyCreations()).toHaveLength(1);
    expect(creation!.json).toEqual({ signingKeyCipher: "ED25519" });
    expect(String(creation!.headers.authorization)).toMatch(/#t\^app-\d+$/);

    const [call] = refundCalls(json.orderId);
    const [jwe] = [...ebay.signingKeys.keys()];
    expect(call!.headers["x-ebay-signature-key"]).toBe(jwe);
    expect(call!.headers["content-digest"]).toMatch(/^sha-256=:[A-Za-z0-9+/]+=*:$/);
    expect(call!.headers["signature-input"]).toMatch(/^sig1=\("content-digest" "x-ebay-signature-key" "@method" "@path" "@authority"\);created=\d+$/);
    expect(call!.headers["signature-input"]).toContain(`created=${Math.floor(clock.now.getTime() / 1000)}`);
    expect(call!.headers.signature).toMatch(/^sig1=:[A-Za-z0-9+/]+=*:$/);

    // The private key is kept sealed: the stored row holds no part of it in the clear.
    const [row] = await t.db.select({ value: configParams.value }).from(configParams).where(eq(configParams.param, EBAY_SIGNING_KEY_PARAM));
    const stored = (await marketplaceSigningKeyStore(t.db).read())!;
    expect(row!.value).not.toContain(stored.privateKey.slice(20, 60));
    expect(JSON.parse(row!.value)).toMatchObject({ jwe, sealedPrivateKey: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/) });
    expect(await signingKeyState(t.db, clock.now)).toMatchObject({ state: "present", signingKeyId: ebay.signingKeys.get(jwe!)!.signingKeyId, expired: false });

    // Another process (a new adapter) signs with the stored key instead of making another.
    await newEbay().refundOrder({ orderId: json.orderId, amount: new Decimal("5"), reason: "OTHER", comment: null, lines: null });
    expect(keyCreations()).toHaveLength(1);
    expect(refundCalls(json.orderId)[1]!.headers["x-ebay-signature-key"]).toBe(jwe);
  });

  it("is refused by eBay without a signature, with a wrong one, or with a key eBay did not issue", async () => {
    const json = ebayOrderJson("12-20000002-00001");
    ebay.orders.push(json);
    const adapter = newEbay();
    await adapter.refundOrder({ orderId: json.orderId, amount: new Decimal("1"), reason: "OTHER", comment: null, lines: null });
    const bearer = String(refundCalls(json.orderId)[0]!.headers.authorization);
    const url = `${ebay.url}/sell/fulfillment/v1/order/${json.orderId}/issue_refund`;
    const body = JSON.stringify({ reasonForRefund: "OTHER", orderLevelRefundAmount: { value: "10.00", currency: "EUR" } });
    const post = (headers: Record<string, string>, sent = body) => fetch(url, { method: "POST", headers: { authorization: bearer, "content-type": "application/json", ...headers }, body: sent });
    const errorOf = async (response: Response) => ({ status: response.status, errorId: ((await response.json()) as { errors: { errorId: number }[] }).errors[0]!.errorId });

    expect(await errorOf(await post({}))).toEqual({ status: 400, errorId: 215001 });
    const key = (await marketplaceSigningKeyStore(t.db).read())!;
    const signed = ebaySignatureHeaders({ method: "POST", url, body }, key, new Date());
    // The body changed after signing: its digest no longer matches.
    expect(await errorOf(await post(signed, body.replace("10.00", "99.00")))).toEqual({ status: 403, errorId: 215122 });
    // Signed with a key pair eBay did not issue under that JWE.
    const { privateKey } = await import("node:crypto").then((crypto) => crypto.generateKeyPairSync("ed25519"));
    const forged = ebaySignatureHeaders({ method: "POST", url, body }, { jwe: key.jwe, privateKey: privateKey.export({ format: "pem", type: "pkcs8" }).toString() }, new Date());
    expect(await errorOf(await post(forged))).toEqual({ status: 403, errorId: 215122 });
    // Leaving content-digest out of the covered components is not eBay's scheme.
    const partial = { ...signed, "signature-input": signed["signature-input"]!.replace('"content-digest" ', "") };
    expect(await errorOf(await post(partial))).toEqual({ status: 403, errorId: 215122 });
    // Signed properly, it goes through.
    expect((await post(signed)).status).toBe(200);
    expect(json.paymentSummary.refunds).toHaveLength(2);

    // The adapter says what eBay refused, naming the signature rather than the access token.
    ebay.signingKeys.clear();
    const refused = await adapter.refundOrder({ orderId: json.orderId, amount: new Decimal("1"), reason: "OTHER", comment: null, lines: null }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(MarketplaceError);
    expect((refused as MarketplaceError).message).toMatch(/refused the digital signature of issueRefund/);
  });

  it("reads an order's fees from its Finances API transactions, signed, and nothing while eBay lists no sale", async () => {
    const adapter = newEbay();
    expect(await adapter.getOrderFees("12-20000003-00001")).toBeNull();
    const [finances] = ebay.requests.filter((request) => request.path === "/sell/finances/v1/transaction");
    expect(finances!.query.get("filter")).toBe("orderId:{12-20000003-00001}");
    expect(finances!.headers["signature-input"]).toMatch(/^sig1=\("x-ebay-signature-key" "@method" "@path" "@authority"\);created=\d+$/);
    expect(finances!.headers["content-digest"]).toBeUndefined();

    const eur = (value: string) => ({ value, currency: "EUR" });
    ebay.transactions.push(
      {
        transactionId: "04-11111-22222",
        orderId: "12-20000003-00001",
        transactionType: "SALE",
        bookingEntry: "CREDIT",
        amount: eur("226.44"),
        totalFeeAmount: eur("35.06"),
        orderLineItems: [
          {
            lineItemId: "100001",
            marketplaceFees: [
              { feeType: "FINAL_VALUE_FEE", amount: eur("34.71") },
              { feeType: "FINAL_VALUE_FEE_FIXED_PER_ORDER", amount: eur("0.35") },
            ],
          },
        ],
      },
      { transactionId: "04-33333-44444", orderId: "12-20000003-00001", transactionType: "NON_SALE_CHARGE", bookingEntry: "DEBIT", feeType: "AD_FEE", amount: eur("4.98") },
      { transactionId: "04-55555-66666", orderId: "12-99999999-00001", transactionType: "SALE", totalFeeAmount: eur("9.99") },
    );
    const fees = await adapter.getOrderFees("12-20000003-00001");
    expect(fees!.total.toFixed(2)).toBe("40.04");
    expect(Object.fromEntries(Object.entries(fees!.byType).map(([type, amount]) => [type, amount.toFixed(2)]))).toEqual({
      FINAL_VALUE_FEE: "34.71",
      FINAL_VALUE_FEE_FIXED_PER_ORDER: "0.35",
      AD_FEE: "4.98",
    });
  });
});
