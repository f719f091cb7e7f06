import { createHash, generateKeyPairSync, verify } from "node:crypto";
import { describe, expect, it } from "vitest";
import { contentDigest, ebayRequiresSignature, ebaySignatureHeaders, verifyEbaySignature } from "./ebay-signature";

/** eBay's digital signature (RFC 9421 as eBay's guide applies it): which calls, the headers, and the check. */

const pair = generateKeyPairSync("ed25519");
const key = { jwe: "eyJ6aXAiOiJERUYifQ.a.b.c.d", privateKey: pair.privateKey.export({ format: "der", type: "pkcs8" }).toString("base64") };
const created = new Date("2026-03-04T09:00:00Z");

describe("eBay's digital signature", () => {
  it("is required on the calls eBay names: Finances, issue_refund and the Post-Order refunds, decisions and cancellations", () => {
    expect(ebayRequiresSignature("GET", "/sell/finances/v1/transaction?filter=orderId:{1}")).toBe(true);
    expect(ebayRequiresSignature("GET", "/sell/finances/v1/payout")).toBe(true);
    expect(ebayRequiresSignature("POST", "/sell/fulfillment/v1/order/12-34567-89012/issue_refund")).toBe(true);
    for (const path of ["/post-order/v2/return/5000012345/issue_refund", "/post-order/v2/return/5000012345/decide", "/post-order/v2/cancellation", "/post-order/v2/cancellation/5000012345/approve", "/post-order/v2/inquiry/1/issue_refund", "/post-order/v2/casemanagement/1/issue_refund"]) {
      expect(ebayRequiresSignature("POST", path)).toBe(true);
    }
    expect(ebayRequiresSignature("GET", "/sell/fulfillment/v1/order/12-34567-89012")).toBe(false);
    expect(ebayRequiresSignature("POST", "/sell/inventory/v1/offer/1/publish")).toBe(false);
    expect(ebayRequiresSignature("GET", "/post-order/v2/return/search")).toBe(false);
  });

  it("signs the documented components, content-digest only with a body, and verifies over the same base", () => {
    const body = JSON.stringify({ reasonForRefund: "OTHER", orderLevelRefundAmount: { value: "20.00", currency: "EUR" } });
    const request = { method: "POST", url: "https://api.ebay.com/sell/fulfillment/v1/order/12-1/issue_refund", body };
    const headers = ebaySignatureHeaders(request, key, created);
    expect(headers["content-digest"]).toBe(`sha-256=:${createHash("sha256").update(body).digest("base64")}:`);
    expect(headers["content-digest"]).toBe(contentDigest(body));
    expect(headers["signature-input"]).toBe('sig1=("content-digest" "x-ebay-signature-key" "@method" "@path" "@authority");created=1772614800');
    // The signature base as RFC 9421 writes it, verified with the public key.
    const base = [
      `"content-digest": ${headers["content-digest"]}`,
      `"x-ebay-signature-key": ${key.jwe}`,
      '"@method": POST',
      '"@path": /sell/fulfillment/v1/order/12-1/issue_refund',
      '"@authority": api.ebay.com',
      '"@signature-params": ("content-digest" "x-ebay-signature-key" "@method" "@path" "@authority");created=1772614800',
    ].join("\n");
    const signature = Buffer.from(/^sig1=:(.+):$/.exec(headers.signature!)![1]!, "base64");
    expect(verify(null, Buffer.from(base), pair.publicKey, signature)).toBe(true);
    expect(verifyEbaySignature(request, new Headers(headers), () => pair.publicKey)).toBeNull();

    const get = { method: "GET", url: "https://apiz.ebay.com/sell/finances/v1/transaction?filter=orderId:%7B1%7D", body: null };
    const getHeaders = ebaySignatureHeaders(get, key, created);
    expect(getHeaders["content-digest"]).toBeUndefined();
    expect(getHeaders["signature-input"]).toBe('sig1=("x-ebay-signature-key" "@method" "@path" "@authority");created=1772614800');
    expect(verifyEbaySignature(get, new Headers(getHeaders), () => pair.publicKey)).toBeNull();
    // Another host is another @authority.
    expect(verifyEbaySignature({ ...get, url: get.url.replace("apiz.ebay.com", "apiz.sandbox.ebay.com") }, new Headers(getHeaders), () => pair.publicKey)).toMatchObject({ errorId: 215122 });
    expect(verifyEbaySignature(get, new Headers(), () => pair.publicKey)).toMatchObject({ status: 400, errorId: 215001 });
  });
});
